#include "tdcone/mpi/share_reader.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "tdcone/core/error.hpp"
#include "tdcone/mpi/guard.hpp"
#include "tdcone/io/line_fingerprint.hpp"
#include "tdcone/io/line_reader.hpp"
#include "tdcone/io/parallel_files.hpp"
#include "tdcone/text/share_builder.hpp"

namespace tdcone::mpi {

namespace {

// A bad line before its file line number is known.
struct PendingBadLine {
  bool label;  // a label problem, not a bad line
  std::size_t segment;
  std::uint64_t index_in_segment;
  std::uint64_t pair_index;
  std::string reason;
};

// Line count of one segment, exchanged to number pairs and lines globally.
struct SegmentLines {
  std::uint64_t file, lines;
  std::uint64_t fingerprint;  // io::LineFingerprint of the segment's lines, as if it started at line 0
  std::uint64_t stream_bytes;  // a stream's: the bytes it delivered
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & file & lines & fingerprint & stream_bytes;
  }
};

// Whether this rank runs on the host of rank 0, which looked the input files
// up for every rank (a device number means something on its host only). Collective.
bool on_host_of_rank_0(const boost::mpi::communicator& comm) {
  std::string host = host_name();
  if (comm.size() > 1) boost::mpi::broadcast(comm, host, 0);
  return host == host_name();
}

// After reading: every file this rank read (once each; segments come in file
// order) must still be the one recorded at the start, else it was cut,
// replaced or rewritten while the job read it (io::check_unchanged).
void check_files_read(const std::vector<io::InputFile>& files, const std::vector<io::Segment>& segments, bool same_host) {
  for (std::size_t k = 0; k < segments.size(); ++k)
    if (k == 0 || segments[k].file != segments[k - 1].file) io::check_unchanged(files[segments[k].file], same_host);
}

}  // namespace

text::TokenizedShare read_share(const boost::mpi::communicator& comm, const std::vector<io::InputFile>& files,
                                const text::ReadOptions& options, text::Vocabulary& vocabulary,
                                const std::function<void(std::uint64_t, double)>& on_progress) {
  text::TokenizedShare share;
  text::ShareBuilder builder(share, options, vocabulary);
  const auto segments = io::plan_share(files, comm.rank(), comm.size());
  std::uint64_t share_bytes = 0;
  for (const auto& s : segments) share_bytes += io::segment_bytes(files[s.file], s);
  builder.expect_bytes(share_bytes);

  std::vector<std::uint64_t> lines_per_segment;
  std::vector<std::uint64_t> segment_fingerprints, segment_stream_bytes;
  std::vector<PendingBadLine> pending;
  const bool same_host = on_host_of_rank_0(comm);
  // A read error (a damaged zstd frame, an I/O error) may hit some ranks only:
  // it is agreed on before the numbering exchange below.
  collective_step(comm, [&] {
    std::uint64_t bytes_before = 0;
    for (std::size_t k = 0; k < segments.size(); ++k) {
      io::LineReader reader(files[segments[k].file], segments[k], options.max_line_bytes);
      share.file_starts.emplace_back(share.size(), segments[k].file);
      io::Line line;
      io::LineFingerprint fingerprint;
      std::uint64_t index = 0;
      for (; reader.next(line); ++index) {
        fingerprint.add(line.text, line.too_long);
        std::string reason = builder.add(line);
        if (!reason.empty()) {
          if (share.bad_count++ < text::kReportedBadLines)
            pending.push_back({false, k, index, share.size() - 1, std::move(reason)});
        } else if (!builder.label_problem().empty() && share.label_problem_count++ < text::kReportedBadLines) {
          pending.push_back({true, k, index, share.size() - 1, builder.label_problem()});
        }
        if (on_progress && (share.size() & 0xffff) == 0)
          on_progress(share.size(), share_bytes ? double(bytes_before + reader.bytes_consumed()) / share_bytes : 1.0);
      }
      bytes_before += reader.bytes_consumed();
      lines_per_segment.push_back(index);
      segment_fingerprints.push_back(fingerprint.sum());
      segment_stream_bytes.push_back(reader.stream_bytes());
    }
    check_files_read(files, segments, same_host);
  });

  // Global numbering: pair ids run over ranks in order; line numbers count
  // the lines of earlier segments of the same file.
  std::vector<SegmentLines> mine;
  for (std::size_t k = 0; k < segments.size(); ++k)
    mine.push_back({segments[k].file, lines_per_segment[k], segment_fingerprints[k], segment_stream_bytes[k]});
  std::vector<std::vector<SegmentLines>> all;
  boost::mpi::all_gather(comm, mine, all);
  share.file_lines.assign(files.size(), 0);
  share.file_fingerprints.assign(files.size(), 0);
  share.file_sizes.assign(files.size(), 0);
  for (std::size_t i = 0; i < files.size(); ++i) share.file_sizes[i] = files[i].size;
  const int rank = comm.rank();
  std::vector<std::uint64_t> lines_on_lower_ranks(files.size(), 0);  // per file
  for (int r = 0; r < comm.size(); ++r)
    for (const SegmentLines& s : all[r]) {
      // Segments arrive in (file, offset) order over the ranks: each starts where the file's lines so far end.
      share.file_fingerprints[s.file] += io::LineFingerprint::shifted(s.fingerprint, share.file_lines[s.file]);
      share.file_lines[s.file] += s.lines;
      share.file_sizes[s.file] += s.stream_bytes;  // a stream's size is 0 until read
      share.total_lines += s.lines;
      if (r < rank) {
        share.first_pair_id += s.lines;
        lines_on_lower_ranks[s.file] += s.lines;
      }
    }
  std::vector<std::uint64_t> lines_before_in_file(segments.size(), 0);
  for (std::size_t k = 0; k < segments.size(); ++k) lines_before_in_file[k] = lines_on_lower_ranks[segments[k].file];
  for (std::size_t k = 1; k < segments.size(); ++k)
    if (segments[k].file == segments[k - 1].file) lines_before_in_file[k] = lines_before_in_file[k - 1] + lines_per_segment[k - 1];
  for (PendingBadLine& p : pending)
    (p.label ? share.label_problems : share.bad_lines).push_back({share.first_pair_id + p.pair_index, files[segments[p.segment].file].path,
                               lines_before_in_file[p.segment] + p.index_in_segment + 1, std::move(p.reason)});
  builder.finish();
  share.shrink_to_fit();
  return share;
}

namespace {

// Lines owned by one segment of a src or tgt file (first pass of read_parallel_share).
struct SegmentCount {
  std::uint64_t file, begin, lines;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & file & begin & lines;
  }
};

std::vector<SegmentCount> count_segments(const std::vector<io::InputFile>& files, const std::vector<io::Segment>& segments) {
  std::vector<SegmentCount> counts;
  for (const io::Segment& s : segments) counts.push_back({s.file, s.begin, io::count_lines(files[s.file], s)});
  return counts;
}

[[noreturn]] void changed_while_reading(const io::InputFile& file) {
  throw IoError(cat(file.path, ": its lines changed while it was read (line counts differ between two reads)"));
}

}  // namespace

text::TokenizedShare read_parallel_share(const boost::mpi::communicator& comm,
                                         const std::vector<io::InputFile>& src_files,
                                         const std::vector<io::InputFile>& tgt_files, const text::ReadOptions& options,
                                         text::Vocabulary& vocabulary,
                                         const std::function<void(std::uint64_t, double)>& on_progress) {
  if (src_files.size() != tgt_files.size()) throw std::logic_error("read_parallel_share: unmatched files");
  text::TokenizedShare share;
  text::ShareBuilder builder(share, options, vocabulary);
  const auto src_segments = io::plan_share(src_files, comm.rank(), comm.size());
  const auto tgt_segments = io::plan_share(tgt_files, comm.rank(), comm.size());

  // 1. Every rank counts the lines of its src and tgt segments.
  std::vector<SegmentCount> my_src, my_tgt;
  const bool same_host = on_host_of_rank_0(comm);
  collective_step(comm, [&] {
    my_src = count_segments(src_files, src_segments);
    my_tgt = count_segments(tgt_files, tgt_segments);
  });
  std::vector<std::vector<SegmentCount>> all_src, all_tgt;
  boost::mpi::all_gather(comm, my_src, all_src);
  boost::mpi::all_gather(comm, my_tgt, all_tgt);

  // 2. Totals per file (a src file and its tgt file must agree), the first
  // line of each of this rank's src segments in its file, and where every
  // tgt segment starts: (file, begin) -> first line, in file order.
  const std::size_t n_files = src_files.size();
  std::vector<std::uint64_t> src_total(n_files, 0), tgt_total(n_files, 0), first_line(src_segments.size(), 0);
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> tgt_starts(n_files);  // (first line, begin)
  for (int r = 0; r < comm.size(); ++r) {
    for (std::size_t k = 0; k < all_src[r].size(); ++k) {
      const SegmentCount& c = all_src[r][k];
      if (r == comm.rank()) first_line[k] = src_total[c.file];
      if (r < comm.rank()) share.first_pair_id += c.lines;
      src_total[c.file] += c.lines;
      share.total_lines += c.lines;
    }
    for (const SegmentCount& c : all_tgt[r]) {
      tgt_starts[c.file].emplace_back(tgt_total[c.file], c.begin);
      tgt_total[c.file] += c.lines;
    }
  }
  for (std::size_t i = 0; i < n_files; ++i)
    if (src_total[i] != tgt_total[i])
      fail_everywhere(io::line_count_mismatch(src_files[i], src_total[i], tgt_files[i], tgt_total[i]), 1);

  // 3. Each src segment with its tgt lines, read from the nearest tgt segment
  // start before them; with the fingerprint of every src and tgt file's lines
  // (src files first, then tgt files, as the run records its inputs).
  std::vector<std::uint64_t> fingerprints(2 * n_files, 0);
  std::uint64_t share_bytes = 0;
  for (const auto& s : src_segments) share_bytes += io::segment_bytes(src_files[s.file], s);
  collective_step(comm, [&] {
    std::uint64_t bytes_before = 0;
    for (std::size_t k = 0; k < src_segments.size(); ++k) {
      const io::Segment& segment = src_segments[k];
      const std::size_t file = segment.file;
      const std::uint64_t lines = my_src[k].lines;
      share.file_starts.emplace_back(share.size(), file);
      if (lines == 0) continue;
      io::LineReader src_reader(src_files[file], segment, options.max_line_bytes);
      const auto& starts = tgt_starts[file];
      const auto start = std::prev(std::upper_bound(starts.begin(), starts.end(), first_line[k],
                                                    [](std::uint64_t line, const auto& s) { return line < s.first; }));
      io::LineReader tgt_reader(tgt_files[file], io::rest_of_file(tgt_files[file], {file, start->second, 0}),
                                options.max_line_bytes);
      io::Line src, tgt;
      io::LineFingerprint src_fingerprint, tgt_fingerprint;
      for (std::uint64_t skip = first_line[k] - start->first; skip > 0; --skip)
        if (!tgt_reader.next(tgt)) changed_while_reading(tgt_files[file]);
      for (std::uint64_t j = 0; j < lines; ++j) {
        if (!src_reader.next(src)) changed_while_reading(src_files[file]);
        if (!tgt_reader.next(tgt)) changed_while_reading(tgt_files[file]);
        src_fingerprint.add(src.text, src.too_long);
        tgt_fingerprint.add(tgt.text, tgt.too_long);
        bool tgt_side = false;
        std::string reason = builder.add_pair(src, tgt, tgt_side);
        if (!reason.empty() && share.bad_count++ < text::kReportedBadLines)
          share.bad_lines.push_back({share.first_pair_id + share.size() - 1, (tgt_side ? tgt_files : src_files)[file].path,
                                     first_line[k] + j + 1, std::move(reason)});
        if (on_progress && (share.size() & 0xffff) == 0)
          on_progress(share.size(), share_bytes ? double(bytes_before + src_reader.bytes_consumed()) / share_bytes : 1.0);
      }
      if (src_reader.next(src)) changed_while_reading(src_files[file]);
      bytes_before += src_reader.bytes_consumed();
      fingerprints[file] += io::LineFingerprint::shifted(src_fingerprint.sum(), first_line[k]);
      fingerprints[n_files + file] += io::LineFingerprint::shifted(tgt_fingerprint.sum(), first_line[k]);
    }
    check_files_read(src_files, src_segments, same_host);
    check_files_read(tgt_files, tgt_segments, same_host);
    check_files_read(tgt_files, src_segments, same_host);  // tgt file i, read alongside src file i
  });
  // Sums mod 2^64 of pieces: the same for any number of ranks. (Not in place:
  // Boost binds a reference to MPI_IN_PLACE, undefined behaviour.)
  share.file_fingerprints.assign(fingerprints.size(), 0);
  boost::mpi::all_reduce(comm, fingerprints.data(), static_cast<int>(fingerprints.size()),
                         share.file_fingerprints.data(), std::plus<std::uint64_t>());
  share.file_lines = src_total;
  share.file_lines.insert(share.file_lines.end(), tgt_total.begin(), tgt_total.end());
  builder.finish();
  share.shrink_to_fit();
  return share;
}

std::vector<text::BadLine> first_bad_lines(const boost::mpi::communicator& comm, const std::vector<text::BadLine>& lines) {
  std::vector<std::vector<text::BadLine>> all;
  boost::mpi::all_gather(comm, lines, all);
  std::vector<text::BadLine> merged;
  for (auto& lines : all) merged.insert(merged.end(), lines.begin(), lines.end());
  std::sort(merged.begin(), merged.end(), [](const text::BadLine& a, const text::BadLine& b) { return a.pair_id < b.pair_id; });
  if (merged.size() > text::kReportedBadLines) merged.resize(text::kReportedBadLines);
  return merged;
}

}  // namespace tdcone::mpi
