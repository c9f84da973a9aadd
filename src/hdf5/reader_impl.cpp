// What the methods of Reader share: opening objects, stored types, and the
// reading of strings, fixed- or variable-length.
#include "reader_impl.hpp"

#include <unistd.h>

#include <cstdio>

#include "tdcone/core/error.hpp"

namespace tdcone::hdf5 {

using detail::check;
using detail::Handle;
using detail::own;

namespace {

/// The text of one fixed-length string element, without its padding.
std::string unpad(const char* data, std::size_t width, H5T_str_t pad) {
  std::string text(data, width);
  if (pad == H5T_STR_NULLTERM) {
    const auto end = text.find('\0');
    if (end != std::string::npos) text.resize(end);
  } else {
    const char filler = pad == H5T_STR_SPACEPAD ? ' ' : '\0';
    while (!text.empty() && text.back() == filler) text.pop_back();
  }
  return text;
}

}  // namespace

Handle Reader::Impl::open_object(const std::string& object) const {
  return own(H5Oopen(file.get(), object.c_str(), H5P_DEFAULT), H5Oclose, "open", object, path);
}

Handle Reader::Impl::open_attribute(const std::string& object, const std::string& name) const {
  const Handle target = open_object(object);
  Handle attribute = own(H5Aopen(target.get(), name.c_str(), H5P_DEFAULT), H5Aclose, "open",
                         cat("attribute '", name, "' of ", object), path);
  return attribute;
}

Handle Reader::Impl::open_dataset(const std::string& dataset) const {
  return own(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose, "open", "dataset " + dataset, path);
}

Reader::Impl::TypeInfo Reader::Impl::type_of(hid_t type_id, const std::string& what) const {
  TypeInfo info;
  info.type = own(type_id, H5Tclose, "get the type of", what, path);
  info.cls = H5Tget_class(info.type.get());
  if (info.cls == H5T_NO_CLASS) detail::fail("classify the type of", what, path);
  if (info.cls == H5T_INTEGER) {
    const H5T_sign_t sign = H5Tget_sign(info.type.get());
    if (sign == H5T_SGN_ERROR) detail::fail("get the sign of", what, path);
    info.is_signed = sign != H5T_SGN_NONE;
  }
  return info;
}

std::size_t Reader::Impl::element_count(hid_t space_id, const std::string& what) const {
  const Handle space = own(space_id, H5Sclose, "get the dataspace of", what, path);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0) detail::fail("count the elements of", what, path);
  return static_cast<std::size_t>(n);
}

void Reader::Impl::check_fits(std::size_t rows, std::size_t row_bytes, const std::string& what) const {
  const long pages = sysconf(_SC_PHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_bytes <= 0 || row_bytes == 0) return;
  const double memory = static_cast<double>(pages) * static_cast<double>(page_bytes);
  const double bytes = static_cast<double>(rows) * static_cast<double>(row_bytes);
  if (bytes <= memory) return;
  const auto gib = [](double b) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", b / (1 << 30));
    return std::string(text);
  };
  throw IoError(cat(path, ": ", what, " claims ", rows, " rows (", gib(bytes), " at ", row_bytes,
                    " bytes a row), more than this machine's memory (", gib(memory),
                    "): a damaged or hand-made file? rerun the tdcone command that wrote it"));
}

std::string Reader::Impl::type_name(const TypeInfo& info, const std::string& what) const {
  const std::size_t bytes = H5Tget_size(info.type.get());
  switch (info.cls) {
    case H5T_INTEGER:
      return cat(info.is_signed ? "i" : "u", 8 * bytes);
    case H5T_FLOAT:
      return cat("f", 8 * bytes);
    case H5T_STRING: {
      const htri_t variable = H5Tis_variable_str(info.type.get());
      check(variable, "inspect the string type of", what, path);
      const char* cset = H5Tget_cset(info.type.get()) == H5T_CSET_UTF8 ? "UTF-8" : "ASCII";
      return variable > 0 ? cat("string (variable-length, ", cset, ")") : cat("string (fixed ", bytes, " bytes, ", cset, ")");
    }
    default:
      return "other";
  }
}

void Reader::Impl::wrong_type(const std::string& what, const char* expected) const {
  throw IoError(cat(what, " in ", path, " is not ", expected));
}

std::pair<Handle, Reader::Impl::TypeInfo> Reader::Impl::scalar_attribute(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  Handle attribute = open_attribute(object, name);
  if (element_count(H5Aget_space(attribute.get()), what) != 1) wrong_type(what, "a single value");
  TypeInfo info = type_of(H5Aget_type(attribute.get()), what);
  return {std::move(attribute), std::move(info)};
}

Handle Reader::Impl::variable_string_memory(const TypeInfo& info, const std::string& what) const {
  const htri_t variable = H5Tis_variable_str(info.type.get());
  check(variable, "inspect the string type of", what, path);
  if (variable <= 0) return Handle();
  Handle memory = own(H5Tcopy(H5T_C_S1), H5Tclose, "create a string type for", what, path);
  check(H5Tset_size(memory.get(), H5T_VARIABLE), "size the string type of", what, path);
  // HDF5 converts no string between ASCII and UTF-8: read in the stored character set.
  check(H5Tset_cset(memory.get(), H5Tget_cset(info.type.get())), "set the character set for", what, path);
  return memory;
}

std::string Reader::Impl::read_string_attribute(hid_t attribute, const TypeInfo& info, const std::string& what) const {
  if (const Handle memory = variable_string_memory(info, what); memory.valid()) {
    char* text = nullptr;
    check(H5Aread(attribute, memory.get(), &text), "read", what, path);
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
  }
  const std::size_t width = H5Tget_size(info.type.get());
  if (width == 0) detail::fail("get the size of", what, path);
  std::vector<char> buffer(width);
  check(H5Aread(attribute, info.type.get(), buffer.data()), "read", what, path);
  return unpad(buffer.data(), width, H5Tget_strpad(info.type.get()));
}

std::vector<std::string> Reader::Impl::read_string_dataset(hid_t dset, const TypeInfo& info, std::size_t n,
                                                           const std::string& what) const {
  std::vector<std::string> rows;
  if (n == 0) return rows;
  // A string row holds at least its std::string, a fixed-length one its bytes too.
  const htri_t variable = H5Tis_variable_str(info.type.get());
  check_fits(n, sizeof(std::string) + (variable > 0 ? sizeof(char*) : H5Tget_size(info.type.get())), what);
  rows.reserve(n);
  if (const Handle memory = variable_string_memory(info, what); memory.valid()) {
    std::vector<char*> texts(n, nullptr);
    check(H5Dread(dset, memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()), "read", what, path);
    for (char* text : texts) rows.emplace_back(text != nullptr ? text : "");
    const Handle space = own(H5Dget_space(dset), H5Sclose, "get the dataspace of", what, path);
    H5Dvlen_reclaim(memory.get(), space.get(), H5P_DEFAULT, texts.data());
    return rows;
  }
  const std::size_t width = H5Tget_size(info.type.get());
  if (width == 0) detail::fail("get the size of", what, path);
  std::vector<char> buffer(n * width);
  check(H5Dread(dset, info.type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), "read", what, path);
  const H5T_str_t pad = H5Tget_strpad(info.type.get());
  for (std::size_t i = 0; i < n; ++i) rows.push_back(unpad(buffer.data() + i * width, width, pad));
  return rows;
}

}  // namespace tdcone::hdf5
