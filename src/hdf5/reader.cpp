// Reader: read access to a finished result file, one process, no MPI.
#include "tdcone/hdf5/reader.hpp"

#include <algorithm>

#include "reader_impl.hpp"
#include "tdcone/core/error.hpp"
#include "tdcone/core/number_text.hpp"
#include "tdcone/hdf5/deflate_filter.hpp"
#include "tdcone/hdf5/zstd_filter.hpp"

namespace tdcone::hdf5 {

using detail::check;
using detail::Handle;
using detail::own;

namespace {
// Collects the names of the hard links to objects of `kind` (datasets, groups).
template <H5O_type_t kind>
herr_t collect_objects(hid_t group, const char* name, const H5L_info_t* link, void* data) {
  if (link->type != H5L_TYPE_HARD) return 0;
  H5O_info_t object;
  if (H5Oget_info_by_name2(group, name, &object, H5O_INFO_BASIC, H5P_DEFAULT) < 0) return -1;
  if (object.type == kind) static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}
}  // namespace

Reader::Reader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  detail::silence_hdf5_errors();
  register_deflate_filter();
  register_zstd_filter();  // so files written with --compression zstd read in-process
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw IoError(cat("cannot open ", path, " as HDF5: ", detail::hdf5_reason()));
  impl_->file = Handle(id, H5Fclose);
}

Reader::~Reader() = default;

bool Reader::exists(const std::string& object) const {
  if (object.empty()) return false;
  // H5Lexists fails on a missing intermediate group: test each prefix in turn.
  std::string prefix;
  std::size_t start = 0;
  while (start <= object.size()) {
    const std::size_t end = std::min(object.find('/', start), object.size());
    if (end > start) {
      prefix += '/';
      prefix.append(object, start, end - start);
      const htri_t found = H5Lexists(impl_->file.get(), prefix.c_str(), H5P_DEFAULT);
      if (found <= 0) {
        if (found < 0) H5Eclear2(H5E_DEFAULT);
        return false;
      }
    }
    start = end + 1;
  }
  return true;  // "/" or every component found
}

namespace {
/// The names `collect` keeps among the links of `group`, in creation order
/// when the file tracks it, else by name.
std::vector<std::string> links(hid_t file, const std::string& path, const std::string& group, H5L_iterate_t collect) {
  const std::string what = "group " + group;
  const Handle handle = own(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose, "open", what, path);
  const Handle gcpl = own(H5Gget_create_plist(handle.get()), H5Pclose, "get the properties of", what, path);
  unsigned order = 0;
  check(H5Pget_link_creation_order(gcpl.get(), &order), "get the link order of", what, path);
  std::vector<std::string> names;
  hsize_t index = 0;
  herr_t status = -1;
  if (order & H5P_CRT_ORDER_TRACKED) {
    status = H5Literate(handle.get(), H5_INDEX_CRT_ORDER, H5_ITER_INC, &index, collect, &names);
    if (status < 0) H5Eclear2(H5E_DEFAULT);  // tracked but not indexed: fall back to names
  }
  if (status < 0) {
    names.clear();
    index = 0;
    check(H5Literate(handle.get(), H5_INDEX_NAME, H5_ITER_INC, &index, collect, &names), "list", what, path);
  }
  return names;
}
}  // namespace

std::vector<std::string> Reader::datasets(const std::string& group) const {
  return links(impl_->file.get(), impl_->path, group, collect_objects<H5O_TYPE_DATASET>);
}

std::vector<std::string> Reader::groups(const std::string& group) const {
  return links(impl_->file.get(), impl_->path, group, collect_objects<H5O_TYPE_GROUP>);
}

std::vector<std::string> Reader::attributes(const std::string& object) const {
  const Handle target = impl_->open_object(object);
  std::vector<std::string> names;
  hsize_t index = 0;
  check(H5Aiterate2(target.get(), H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute, &names),
        "list the attributes of", object, impl_->path);
  return names;
}

double Reader::attribute_double(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const auto [attribute, info] = impl_->scalar_attribute(object, name);
  if (info.cls != H5T_FLOAT && info.cls != H5T_INTEGER) impl_->wrong_type(what, "a number");
  return impl_->read_attribute<double>(attribute.get(), H5T_NATIVE_DOUBLE, what);
}

std::uint64_t Reader::attribute_uint(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const auto [attribute, info] = impl_->scalar_attribute(object, name);
  if (info.cls != H5T_INTEGER) impl_->wrong_type(what, "an integer");
  if (info.is_signed) {
    const auto value = impl_->read_attribute<std::int64_t>(attribute.get(), H5T_NATIVE_INT64, what);
    if (value < 0) impl_->wrong_type(what, "a non-negative integer");
    return static_cast<std::uint64_t>(value);
  }
  return impl_->read_attribute<std::uint64_t>(attribute.get(), H5T_NATIVE_UINT64, what);
}

std::string Reader::attribute_string(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const auto [attribute, info] = impl_->scalar_attribute(object, name);
  if (info.cls != H5T_STRING) impl_->wrong_type(what, "a string");
  return impl_->read_string_attribute(attribute.get(), info, what);
}

std::vector<std::uint64_t> Reader::attribute_uints(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const Handle attribute = impl_->open_attribute(object, name);
  const std::size_t n = impl_->element_count(H5Aget_space(attribute.get()), what);
  const auto info = impl_->type_of(H5Aget_type(attribute.get()), what);
  if (info.cls != H5T_INTEGER || info.is_signed) impl_->wrong_type(what, "unsigned integers");
  std::vector<std::uint64_t> values(n);
  if (n > 0) check(H5Aread(attribute.get(), H5T_NATIVE_UINT64, values.data()), "read", what, impl_->path);
  return values;
}

std::string Reader::attribute_type(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  const Handle attribute = impl_->open_attribute(object, name);
  const std::size_t n = impl_->element_count(H5Aget_space(attribute.get()), what);
  const auto info = impl_->type_of(H5Aget_type(attribute.get()), what);
  const std::string type = impl_->type_name(info, what);
  return n == 1 ? type : cat(type, "[", n, "]");
}

std::string Reader::dataset_type(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  return impl_->type_name(impl_->type_of(H5Dget_type(dset.get()), what), what);
}

std::size_t Reader::rows(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  return impl_->element_count(H5Dget_space(dset.get()), what);
}

Column::Kind Reader::column_kind(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  switch (info.cls) {
    case H5T_INTEGER: return info.is_signed ? Column::Kind::signed_integer : Column::Kind::unsigned_integer;
    case H5T_FLOAT: return Column::Kind::real;
    case H5T_STRING: return Column::Kind::text;
    default: impl_->wrong_type(what, "a number or string column");
  }
}

std::string Reader::attribute_text(const std::string& object, const std::string& name) const {
  const std::string what = cat("attribute '", name, "' of ", object);
  {
    const Handle attribute = impl_->open_attribute(object, name);
    const std::size_t n = impl_->element_count(H5Aget_space(attribute.get()), what);
    if (n != 1) {  // an array of numbers
      const auto info = impl_->type_of(H5Aget_type(attribute.get()), what);
      std::string text = "[";
      if (info.cls == H5T_INTEGER && !info.is_signed) {
        std::vector<std::uint64_t> values(n);
        if (n > 0) check(H5Aread(attribute.get(), H5T_NATIVE_UINT64, values.data()), "read", what, impl_->path);
        for (std::size_t i = 0; i < n; ++i) text += cat(i ? ", " : "", values[i]);
      } else if (info.cls == H5T_INTEGER || info.cls == H5T_FLOAT) {
        std::vector<double> values(n);
        if (n > 0) check(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, values.data()), "read", what, impl_->path);
        for (std::size_t i = 0; i < n; ++i) text += cat(i ? ", " : "", shortest_text(values[i]));
      } else {
        impl_->wrong_type(what, "a single value or an array of numbers");
      }
      return text + "]";
    }
  }
  const auto [attribute, info] = impl_->scalar_attribute(object, name);
  switch (info.cls) {
    case H5T_INTEGER:
      if (info.is_signed)
        return std::to_string(impl_->read_attribute<std::int64_t>(attribute.get(), H5T_NATIVE_INT64, what));
      return std::to_string(impl_->read_attribute<std::uint64_t>(attribute.get(), H5T_NATIVE_UINT64, what));
    case H5T_FLOAT:
      return shortest_text(impl_->read_attribute<double>(attribute.get(), H5T_NATIVE_DOUBLE, what));
    case H5T_STRING:
      return impl_->read_string_attribute(attribute.get(), info, what);
    default:
      impl_->wrong_type(what, "a number or a string");
  }
}

std::vector<std::uint64_t> Reader::read_uint(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_INTEGER || info.is_signed) impl_->wrong_type(what, "an unsigned integer column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  return impl_->read_numbers<std::uint64_t>(dset.get(), H5T_NATIVE_UINT64, n, what);
}

std::vector<std::uint64_t> Reader::read_uint(const std::string& dataset, std::uint64_t first, std::uint64_t count) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_INTEGER || info.is_signed) impl_->wrong_type(what, "an unsigned integer column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  if (first > n || count > n - first)
    throw IoError(cat(impl_->path, ": ", what, " has ", n, " rows, not rows ", first, " to ", first + count));
  return impl_->read_rows<std::uint64_t>(dset.get(), H5T_NATIVE_UINT64, first, count, what);
}

std::vector<double> Reader::read_double(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_FLOAT && info.cls != H5T_INTEGER) impl_->wrong_type(what, "a numeric column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  return impl_->read_numbers<double>(dset.get(), H5T_NATIVE_DOUBLE, n, what);
}

std::vector<double> Reader::read_double(const std::string& dataset, std::uint64_t first, std::uint64_t count) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_FLOAT && info.cls != H5T_INTEGER) impl_->wrong_type(what, "a numeric column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  if (first > n || count > n - first)
    throw IoError(cat(impl_->path, ": ", what, " has ", n, " rows, not rows ", first, " to ", first + count));
  return impl_->read_rows<double>(dset.get(), H5T_NATIVE_DOUBLE, first, count, what);
}

std::vector<std::string> Reader::read_strings(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  if (info.cls != H5T_STRING) impl_->wrong_type(what, "a string column");
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  return impl_->read_string_dataset(dset.get(), info, n, what);
}

Column Reader::read_column(const std::string& dataset) const {
  const std::string what = "dataset " + dataset;
  const Handle dset = impl_->open_dataset(dataset);
  const auto info = impl_->type_of(H5Dget_type(dset.get()), what);
  const std::size_t n = impl_->element_count(H5Dget_space(dset.get()), what);
  Column column;
  switch (info.cls) {
    case H5T_INTEGER:
      if (info.is_signed) {
        column.kind = Column::Kind::signed_integer;
        column.signed_values = impl_->read_numbers<std::int64_t>(dset.get(), H5T_NATIVE_INT64, n, what);
      } else {
        column.kind = Column::Kind::unsigned_integer;
        column.unsigned_values = impl_->read_numbers<std::uint64_t>(dset.get(), H5T_NATIVE_UINT64, n, what);
      }
      return column;
    case H5T_FLOAT:
      column.kind = Column::Kind::real;
      column.real_values = impl_->read_numbers<double>(dset.get(), H5T_NATIVE_DOUBLE, n, what);
      return column;
    case H5T_STRING:
      column.kind = Column::Kind::text;
      column.text_values = impl_->read_string_dataset(dset.get(), info, n, what);
      return column;
    default:
      impl_->wrong_type(what, "a number or string column");
  }
}

}  // namespace tdcone::hdf5
