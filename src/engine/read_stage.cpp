#include "tdcone/engine/read_stage.hpp"

#include "tdcone/core/progress.hpp"
#include "tdcone/mpi/share_reader.hpp"

namespace tdcone::engine {

text::TokenizedShare read_files(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& files,
                                const text::ReadOptions& options, text::Vocabulary& vocabulary, const std::string& what) {
  Progress progress(comm.rank() == 0, "read " + what, "lines", "rank 0", comm.size());
  text::TokenizedShare share = mpi::read_share(
      comm, files, options, vocabulary, [&](std::uint64_t lines, double fraction) { progress.update(lines, fraction); });
  progress.finish(share.size());
  return share;
}

text::TokenizedShare read_parallel_files(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& src_files,
                                         const std::vector<io::InputFile>& tgt_files, const text::ReadOptions& options,
                                         text::Vocabulary& vocabulary, const std::string& what) {
  Progress progress(comm.rank() == 0, "read " + what, "lines", "on rank 0");
  text::TokenizedShare share = mpi::read_parallel_share(
      comm, src_files, tgt_files, options, vocabulary,
      [&](std::uint64_t lines, double fraction) { progress.update(lines, fraction); });
  progress.finish(share.size());
  return share;
}

}  // namespace tdcone::engine
