// The collective writes of OutputFile (attributes, columns) and the
// read-back check of what this rank wrote, before the file is renamed.
#include <libdeflate.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
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

struct DecompressorFree {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};
struct HashStateFree {
  void operator()(XXH3_state_t* state) const { XXH3_freeState(state); }
};

// The hash of rows [offset, offset + count) of a dataset stored as our
// default compression writes it (chunked, deflate, shuffled first unless
// floating point; the rows' own type), its chunks read raw and inflated here
// by libdeflate, about three times faster than HDF5's zlib; the same bits as
// XXH3_64bits of the rows. nullopt for any other dataset or any surprise (a
// chunk not filtered, a stream that does not inflate to a whole chunk):
// H5Dread then decides.
std::optional<XXH64_hash_t> hash_of_deflated_rows(hid_t dset, hid_t memory_type, std::uint64_t offset,
                                                  std::uint64_t count) {
  const Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  const Handle file_type(H5Dget_type(dset), H5Tclose);
  if (!dcpl.valid() || !file_type.valid() || H5Pget_layout(dcpl.get()) != H5D_CHUNKED ||
      H5Tequal(file_type.get(), memory_type) <= 0)
    return std::nullopt;
  const int filters = H5Pget_nfilters(dcpl.get());
  const auto filter = [&](unsigned k) {
    unsigned flags = 0, config = 0;
    std::size_t n_values = 0;
    return H5Pget_filter2(dcpl.get(), k, &flags, &n_values, nullptr, 0, nullptr, &config);
  };
  const bool shuffled = filters == 2;
  if ((filters != 1 && filters != 2) || (shuffled && filter(0) != H5Z_FILTER_SHUFFLE) ||
      filter(filters - 1) != H5Z_FILTER_DEFLATE)
    return std::nullopt;
  hsize_t chunk_rows = 0;
  if (H5Pget_chunk(dcpl.get(), 1, &chunk_rows) != 1 || chunk_rows == 0) return std::nullopt;

  const std::size_t width = H5Tget_size(memory_type), chunk_bytes = chunk_rows * width;
  const std::unique_ptr<libdeflate_decompressor, DecompressorFree> inflater(libdeflate_alloc_decompressor());
  const std::unique_ptr<XXH3_state_t, HashStateFree> hash(XXH3_createState());
  if (!inflater || !hash || XXH3_64bits_reset(hash.get()) != XXH_OK) return std::nullopt;
  std::vector<unsigned char> stored, inflated_bytes(chunk_bytes), unshuffled(shuffled ? chunk_bytes : 0);
  const std::uint64_t end = offset + count;
  for (hsize_t first = offset / chunk_rows * chunk_rows; first < end; first += chunk_rows) {
    hsize_t stored_bytes = 0;
    std::uint32_t skipped_filters = 0;
    std::size_t inflated = 0;
    if (H5Dget_chunk_storage_size(dset, &first, &stored_bytes) < 0) return std::nullopt;
    stored.resize(stored_bytes);
    if (H5Dread_chunk(dset, H5P_DEFAULT, &first, &skipped_filters, stored.data()) < 0 || skipped_filters != 0 ||
        libdeflate_zlib_decompress(inflater.get(), stored.data(), stored.size(), inflated_bytes.data(), chunk_bytes,
                                   &inflated) != LIBDEFLATE_SUCCESS ||
        inflated != chunk_bytes)
      return std::nullopt;
    const std::uint64_t from = std::max<std::uint64_t>(offset, first) - first,
                        to = std::min<std::uint64_t>(end, first + chunk_rows) - first;
    const unsigned char* rows = inflated_bytes.data();
    if (shuffled) {  // the shuffle filter stores byte b of every row together: row i's byte b is at b·chunk_rows + i
      for (std::size_t b = 0; b < width; ++b) {
        const unsigned char* plane = inflated_bytes.data() + b * chunk_rows;
        for (std::uint64_t i = from; i < to; ++i) unshuffled[i * width + b] = plane[i];
      }
      rows = unshuffled.data();
    }
    if (XXH3_64bits_update(hash.get(), rows + from * width, (to - from) * width) != XXH_OK) return std::nullopt;
  }
  return XXH3_64bits_digest(hash.get());
}

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
    if (hash_of_deflated_rows(dset.get(), w.memory_type.get(), w.offset, w.count) == w.hash) continue;
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
