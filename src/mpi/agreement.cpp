#include "tdcone/mpi/agreement.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include <algorithm>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"

namespace boost::serialization {

template <class Archive>
void serialize(Archive& archive, tdcone::io::InputFile& file, unsigned /*version*/) {
  int compression = static_cast<int>(file.compression);
  archive & file.path & file.size & compression & file.frame_offsets & file.stream & file.device & file.inode &
      file.mtime_ns;
  file.compression = static_cast<tdcone::io::Compression>(compression);
}

}  // namespace boost::serialization

namespace tdcone::mpi {

namespace {

// What "here" and "there" mean in the messages of a rank that differs from rank 0.
std::string here_and_there(int rank, const std::string& host, const std::string& reference_host) {
  return cat("here: rank ", rank, " on host ", host, "; there: rank 0 on host ", reference_host);
}

// What a rank's arguments differ in from rank 0's, or "".
std::string how_arguments_differ(const std::vector<std::string>& mine, const std::vector<std::string>& reference) {
  const auto [here, there] = std::mismatch(mine.begin(), mine.end(), reference.begin(), reference.end());
  if (here == mine.end() && there == reference.end()) return "";
  const auto shown = [](auto it, auto end) { return it == end ? std::string("nothing") : cat("'", *it, "'"); };
  return cat("argument ", here - mine.begin() + 1, " is ", shown(here, mine.end()), " here but ",
             shown(there, reference.end()), " there");
}

// Rank 0's files, or why it has none (then told by every rank: a missing
// file, an HDF5 result given as text).
struct ReferenceFiles {
  std::string host, error;
  int status = 0;
  std::vector<io::InputFile> files;
  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive & host & error & status & files;
  }
};

}  // namespace

void agree_on_arguments(const boost::mpi::communicator& comm, const std::vector<std::string>& arguments,
                        const std::string& what, int status, const std::string& message) {
  if (comm.size() == 1) {
    if (status != 0) throw CollectiveError(message, status);
    return;
  }
  std::pair<std::string, std::vector<std::string>> reference{host_name(), arguments};
  boost::mpi::broadcast(comm, reference, 0);
  std::string mine = message;
  if (status == 0 && comm.rank() != 0) {
    const std::string differs = how_arguments_differ(arguments, reference.second);
    if (!differs.empty()) {
      status = 2;
      mine = cat(what, " differs from rank 0's: ", differs, " (", here_and_there(comm.rank(), host_name(), reference.first),
                 "); every rank must run the same command: check the job script, and files that differ between nodes");
    }
  }
  if (const auto failure = first_failure(comm, status, mine)) throw collective_error(*failure);
}

std::vector<io::InputFile> agreed_inputs(const boost::mpi::communicator& comm, const std::vector<std::string>& patterns,
                                         Option option) {
  ReferenceFiles reference;
  if (comm.rank() == 0) {
    reference.host = host_name();
    reference.status = run_local_step([&] { reference.files = io::resolve_inputs(patterns); }, reference.error);
  }
  if (comm.size() > 1) boost::mpi::broadcast(comm, reference, 0);
  if (reference.status != 0) throw CollectiveError(reference.error, reference.status);
  if (comm.size() == 1) return std::move(reference.files);
  collective_step(comm, [&] {
    if (comm.rank() == 0) return;
    const std::vector<io::InputFile> files = io::stat_inputs(patterns);
    const std::string host = host_name();
    const auto& theirs = reference.files;
    const auto differ = [&](const std::string& what) {
      return IoError(cat(option, " ", what, " (", here_and_there(comm.rank(), host, reference.host),
                         "); every rank must read the same files: a node-local copy that differs, or a file "
                         "replaced while the job starts?"));
    };
    if (files.size() != theirs.size())
      throw differ(cat("names ", files.size(), " file(s) here but ", theirs.size(), " there"));
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::string how = io::how_files_differ(files[i], theirs[i], host == reference.host);
      if (!how.empty()) throw differ(cat(theirs[i].path, ": ", how));
    }
  });
  return std::move(reference.files);
}

}  // namespace tdcone::mpi
