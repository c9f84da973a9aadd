#include "tdcone/results/writer.hpp"

#include <boost/mpi/collectives.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <span>

#include "tdcone/core/progress.hpp"
#include "tdcone/results/diversity_columns.hpp"

namespace tdcone::results {

namespace {
std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}
}  // namespace

std::string recorded_path(const io::InputFile& file) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(file.path, ec);
  return ec ? file.path : absolute.lexically_normal().string();
}

void write_run_attributes(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const std::string& command,
                          const std::string& config_toml, const std::vector<io::InputFile>& inputs,
                          const text::TokenizedShare& share, const LineCounts& counts) {
  std::string created = comm.rank() == 0 ? utc_now() : "";
  boost::mpi::broadcast(comm, created, 0);  // attribute values must agree on all ranks
  // Absolute paths, so that `tdcone export --text` finds the files from any
  // directory; with their sizes and content fingerprints, so that it can tell
  // when a file is no longer the one that was read.
  std::vector<std::string> paths;
  std::vector<std::uint64_t> sizes;
  // A stream's size is the bytes it delivered (share.file_sizes).
  const bool read_sizes = share.file_sizes.size() == inputs.size();
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    paths.push_back(recorded_path(inputs[k]));
    sizes.push_back(read_sizes ? share.file_sizes[k] : inputs[k].size);
  }
  set_attribute(file, schema::root::tdcone_version, std::string(TDCONE_VERSION));
  set_attribute(file, schema::root::command, command);
  set_attribute(file, schema::root::config, config_toml);
  set_attribute(file, schema::root::n_ranks, static_cast<std::uint64_t>(comm.size()));
  set_attribute(file, schema::root::created, created);
  // Columns, not attributes: an object's attributes hold at most 64 KiB, the
  // sizes of some 8,000 files. Every rank has the list; rank 0 writes it.
  const std::uint64_t n = inputs.size(), mine = comm.rank() == 0 ? n : 0;
  file.create_group(schema::inputs::group);
  file.write_column(schema::inputs::path.path(), comm.rank() == 0 ? paths : std::vector<std::string>(), 0, n);
  file.write_column(schema::inputs::size.path(), std::span<const std::uint64_t>(sizes).first(mine), 0, n);
  if (share.file_lines.size() == inputs.size()) {
    file.write_column(schema::inputs::lines.path(), std::span<const std::uint64_t>(share.file_lines).first(mine), 0, n);
    file.write_column(schema::inputs::fingerprint.path(),
                      std::span<const std::uint64_t>(share.file_fingerprints).first(mine), 0, n);
  }
  set_attribute(file, schema::root::n_lines, counts.lines);
  set_attribute(file, schema::root::n_scored, counts.scored);
  set_attribute(file, schema::root::n_flagged, counts.flagged);
}

void write_pairs(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const text::TokenizedShare& share,
                 const io::FieldSpec& fields, const std::vector<double>& tdcone,
                 const std::vector<std::uint64_t>& rank) {
  const std::uint64_t offset = share.first_pair_id, total = share.total_lines;
  // Decided from the field spec, not local data: every rank must create the same datasets.
  const int columns = 10 + (fields.has_score() ? 1 : 0) + (fields.has_id() ? 1 : 0);
  Progress progress(comm.rank() == 0, "write", "columns");
  int written = 0;
  auto column = [&](const schema::Column& dataset, auto rows) {
    file.write_column(dataset.path(), rows, offset, total);
    ++written;
    progress.update(written, static_cast<double>(written) / columns, dataset.name);
  };
  std::vector<std::uint64_t> pair_id(share.size());
  for (std::size_t i = 0; i < share.size(); ++i) pair_id[i] = offset + i;
  file.create_group(schema::pairs::group);
  column(schema::pairs::pair_id, std::span<const std::uint64_t>(pair_id));
  column(schema::pairs::tdcone, std::span<const double>(tdcone));
  column(schema::pairs::rank, std::span<const std::uint64_t>(rank));
  column(schema::pairs::flags, std::span<const std::uint8_t>(share.flags));
  column(schema::pairs::src_len, std::span<const std::uint32_t>(share.src_len));
  column(schema::pairs::tgt_len, std::span<const std::uint32_t>(share.tgt_len));
  if (fields.has_score()) column(schema::pairs::score, std::span<const double>(share.scores));
  if (fields.has_id()) column(schema::pairs::id, std::cref(share.ids));
  for (const auto& [dataset, measure] : {std::pair{&schema::pairs::bleu, PairMeasure::bleu},
                                         {&schema::pairs::unigram_precision, PairMeasure::unigram_precision},
                                         {&schema::pairs::len_ratio, PairMeasure::len_ratio}}) {
    const std::vector<double> values = pair_measure(share, measure);  // one column at a time
    column(*dataset, std::span<const double>(values));
  }
  column(schema::pairs::markers, std::span<const std::uint16_t>(share.diversity.markers()));
  progress.finish(written);
}

SubsetTable::SubsetTable(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const char* group)
    : writer_(comm.rank() == 0), file_(file) {
  file_.create_group(group);
}

template <class T>
void SubsetTable::write(const schema::Column& column, const std::vector<T>& values) {
  const std::span<const T> rows = writer_ ? std::span<const T>(values) : std::span<const T>();
  file_.write_column(column.path(), rows, 0, values.size());
}

void SubsetTable::column(const schema::Column& column, const std::vector<double>& values) { write(column, values); }
void SubsetTable::column(const schema::Column& column, const std::vector<std::uint64_t>& values) {
  write(column, values);
}
void SubsetTable::column(const schema::Column& column, const std::vector<std::uint8_t>& values) {
  write(column, values);
}
void SubsetTable::column(const schema::Column& column, const std::vector<std::string>& values) {
  file_.write_column(column.path(), writer_ ? values : std::vector<std::string>(), 0, values.size());
}

void SubsetTable::scores(const schema::ScoreColumns& columns, const std::vector<entropy::SubsetScore>& subsets,
                         std::size_t first, std::size_t count, bool with_reference) {
  auto field = [&](double entropy::SubsetScore::*member) {
    std::vector<double> values;
    for (std::size_t s = first; s < first + count; ++s) values.push_back(subsets[s].*member);
    return values;
  };
  auto diversity = [&](double (text::DiversitySums::*measure)() const) {
    std::vector<double> values;
    for (std::size_t s = first; s < first + count; ++s) values.push_back((subsets[s].diversity.*measure)());
    return values;
  };
  column(*columns.tdcone, field(&entropy::SubsetScore::tdcone));
  if (columns.cond_entropy) column(*columns.cond_entropy, field(&entropy::SubsetScore::cond_entropy));
  if (with_reference) {
    column(*columns.kl_pq, field(&entropy::SubsetScore::kl_pq));
    column(*columns.kl_pu, field(&entropy::SubsetScore::kl_pu));
    column(*columns.tdcone_rel, field(&entropy::SubsetScore::tdcone_rel));
  }
  column(*columns.bleu, diversity(&text::DiversitySums::bleu));
  column(*columns.unigram_precision, diversity(&text::DiversitySums::unigram_precision));
}

void write_label_table(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const std::vector<std::string>& names,
                       const std::vector<entropy::SubsetScore>& subsets, std::size_t first, bool with_reference) {
  std::vector<std::uint64_t> pairs;
  for (std::size_t s = first; s < first + names.size(); ++s) pairs.push_back(subsets[s].n_pairs);
  SubsetTable table(comm, file, schema::labels::group);
  table.column(schema::labels::label, names);
  table.column(schema::labels::n_pairs, pairs);
  table.scores(schema::labels::scores, subsets, first, names.size(), with_reference);
}

}  // namespace tdcone::results
