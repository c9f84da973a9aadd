// The collective writes of OutputFile (attributes, columns) and the
// read-back check of what this rank wrote, before the file is renamed.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "output_file_impl.hpp"
#include "tdcone/core/error.hpp"

namespace tdcone::hdf5 {

using detail::check;
using detail::Chunking;
using detail::CollectiveTransfer;
using detail::Filters;
using detail::Handle;
using detail::NoFileLocking;
using detail::own;
using detail::ParallelAllocation;
using detail::property_list;
using detail::Where;

namespace {
constexpr hsize_t kChunkRows = 65536;
}  // namespace

void OutputFile::Impl::write_attribute(const std::string& object, const std::string& name, hid_t type,
                                       const void* value, std::optional<hsize_t> elements) {
  const std::string what = cat("attribute '", name, "' of ", object);
  enter(what);
  Handle target = own(H5Oopen(file.get(), object.c_str(), H5P_DEFAULT), H5Oclose, "open",
                      cat("object ", object, " for attribute '", name, "'"), partial);
  const htri_t exists = H5Aexists(target.get(), name.c_str());
  check(exists, "look up", what, partial);
  if (exists > 0) check(H5Adelete(target.get(), name.c_str()), "replace", what, partial);
  Handle space = own(elements ? H5Screate_simple(1, &*elements, nullptr) : H5Screate(H5S_SCALAR), H5Sclose,
                     "create the dataspace of", what, partial);
  Handle attribute = own(H5Acreate2(target.get(), name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                         H5Aclose, "create", what, partial);
  check(H5Awrite(attribute.get(), type, value), "write", what, partial);
  check(attribute.close(), "close", what, partial);
}

std::uint64_t OutputFile::Impl::agree_layout(const std::string& what, std::uint64_t count, std::uint64_t offset,
                                             std::uint64_t total, std::uint64_t width) const {
  const std::uint64_t outside = offset > total || count > total - offset ? 1 : 0;
  std::uint64_t local[4] = {outside, total, std::numeric_limits<std::uint64_t>::max() - total, width};
  std::uint64_t global[4] = {};
  MPI_Allreduce(local, global, 4, MPI_UINT64_T, MPI_MAX, comm);
  if (global[1] != total || global[2] != local[2])
    throw IoError(cat("cannot write ", what, " in ", partial, ": ranks disagree on its total row count"));
  if (global[0] != 0)
    throw IoError(cat("cannot write ", what, " in ", partial, ": rows of ",
                      outside ? cat("rank ", rank, " [", offset, ", ", offset + count, ")") : std::string("a rank"),
                      " fall outside its ", total, " rows"));
  return global[3];
}

void OutputFile::Impl::write_dataset(const std::string& dataset, hid_t file_type, hid_t memory_type, const void* data,
                                     std::uint64_t count, std::uint64_t offset, std::uint64_t total) {
  const std::string what = "dataset " + dataset;
  const Where where{what, partial};
  hsize_t dims = total;
  hsize_t max_dims = total == 0 ? H5S_UNLIMITED : total;  // a 0-row chunked dataset needs room to grow
  Handle space = own(H5Screate_simple(1, &dims, &max_dims), H5Sclose, "create the dataspace of", what, partial);
  Handle dcpl = property_list(H5P_DATASET_CREATE, where, Chunking{std::clamp<hsize_t>(total, 1, kChunkRows)},
                              ParallelAllocation{},
                              Filters{compression, H5Tget_class(file_type) != H5T_FLOAT});
  Handle dset =
      own(H5Dcreate2(file.get(), dataset.c_str(), file_type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
          H5Dclose, "create", what, partial);
  if (total > 0) {  // same on every rank (agreed), so either all write or none
    Handle file_space = own(H5Dget_space(dset.get()), H5Sclose, "get the dataspace of", what, partial);
    hsize_t memory_rows = std::max<std::uint64_t>(count, 1);
    Handle memory_space =
        own(H5Screate_simple(1, &memory_rows, nullptr), H5Sclose, "create a memory dataspace for", what, partial);
    if (count > 0) {
      hsize_t start = offset, rows = count;
      check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &rows, nullptr), "select rows of",
            what, partial);
    } else {
      check(H5Sselect_none(file_space.get()), "select no rows of", what, partial);
      check(H5Sselect_none(memory_space.get()), "select no rows of", what, partial);
    }
    Handle dxpl = property_list(H5P_DATASET_XFER, where, CollectiveTransfer{});
    const char dummy = 0;  // H5Dwrite wants a buffer even for an empty selection
    agree(true, [&] {  // the data may reach the disk from some ranks only
      check(H5Dwrite(dset.get(), memory_type, memory_space.get(), file_space.get(), dxpl.get(),
                     count > 0 ? data : &dummy),
            "write", what, partial);
    });
    if (count > 0)
      written.push_back({dataset, own(H5Tcopy(memory_type), H5Tclose, "copy the type of", what, partial), offset,
                         count, XXH3_64bits(data, count * H5Tget_size(memory_type))});
  }
  check(dset.close(), "close", what, partial);
}

void OutputFile::Impl::verify_written() const {
  const Where where{"the file", partial};
  const Handle fapl = property_list(H5P_FILE_ACCESS, where, NoFileLocking{});
  const Handle reopened = own(H5Fopen(partial.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose, "reopen", where.object,
                              partial);
  std::vector<char> rows;
  for (const WrittenRows& w : written) {
    const std::string what = "dataset " + w.dataset;
    const Handle dset = own(H5Dopen2(reopened.get(), w.dataset.c_str(), H5P_DEFAULT), H5Dclose, "reopen", what, partial);
    const Handle file_space = own(H5Dget_space(dset.get()), H5Sclose, "get the dataspace of", what, partial);
    hsize_t start = w.offset, count = w.count;
    check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr), "select rows of",
          what, partial);
    const Handle memory_space =
        own(H5Screate_simple(1, &count, nullptr), H5Sclose, "create a memory dataspace for", what, partial);
    rows.resize(w.count * H5Tget_size(w.memory_type.get()));
    check(H5Dread(dset.get(), w.memory_type.get(), memory_space.get(), file_space.get(), H5P_DEFAULT, rows.data()),
          "read back", what, partial);
    if (XXH3_64bits(rows.data(), rows.size()) != w.hash)
      throw IoError(cat(what, " reads back different from what was written (rows ", w.offset, " to ",
                        w.offset + w.count - 1, ")"));
  }
}

}  // namespace tdcone::hdf5
