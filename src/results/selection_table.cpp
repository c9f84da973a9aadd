#include "tdcone/results/selection_table.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include <limits>
#include <span>
#include <utility>

#include "tdcone/results/writer.hpp"
#include "tdcone/schema/pair_flags.hpp"

namespace tdcone::results {

void SelectionTable::add(std::uint64_t id, double dh, double p, double g, double h, std::string root, double w,
                         std::uint8_t f) {
  pair_id.push_back(id);
  rank.push_back(pair_id.size());
  delta_h.push_back(dh);
  penalty.push_back(p);
  gain.push_back(g);
  cross_entropy.push_back(h);
  root_word.push_back(std::move(root));
  wge.push_back(w);
  flags.push_back(f);
}

SelectionTable selection_table(const boost::mpi::communicator& comm, const select::Selection& selection,
                               const select::Statistics& stats, const text::TokenizedShare& available,
                               const std::vector<std::size_t>& junk, bool stop) {
  // Lines already in the seed, left out, junk and bad lines of every rank, in input order (ranks hold consecutive
  // pair_ids).
  std::vector<std::pair<std::uint64_t, std::uint8_t>> my_junk;
  for (std::size_t i : junk) {
    const std::uint8_t f = available.flags[i];
    my_junk.emplace_back(available.first_pair_id + i, (f & schema::bad_line)  ? schema::bad_line
                                                      : (f & schema::in_seed) ? schema::in_seed
                                                      : (f & schema::left_out) ? schema::left_out
                                                                               : schema::junk);
  }
  std::vector<std::vector<std::pair<std::uint64_t, std::uint8_t>>> all_junk;
  boost::mpi::gather(comm, my_junk, all_junk, 0);

  SelectionTable table;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::uint8_t cut = stop ? schema::not_selected : 0;
  for (const select::RankedLine& r : selection.ranked)
    table.add(r.pair_id, r.delta_h, r.penalty, r.gain, r.cross_entropy, stats.lexicon[r.root_word], r.wge,
              table.pair_id.size() < selection.stop_rank ? 0 : cut);
  // After the ranked lines: those already in the seed, then those left out by --where, then junk and bad lines
  // (docs/spec.md §6), each in input order.
  const auto pass_of = [](std::uint8_t flag) { return flag == schema::in_seed ? 0 : flag == schema::left_out ? 1 : 2; };
  for (const int pass : {0, 1, 2})
    for (const auto& part : all_junk)
      for (const auto& [id, flag] : part)
        if (pass_of(flag) == pass) table.add(id, nan, nan, nan, nan, "", nan, flag | cut);
  return table;
}

void write_selection(const boost::mpi::communicator& comm, hdf5::OutputFile& file, const SelectionTable& table,
                     std::uint64_t rows, const select::Selection& selection, const select::Statistics& stats,
                     std::uint64_t in_seed, std::uint64_t left_out) {
  file.create_group(schema::selection::group);
  auto mine = [&](const auto& column) { return comm.rank() == 0 ? std::span(column) : decltype(std::span(column))(); };
  file.write_column(schema::selection::pair_id.path(), mine(table.pair_id), 0, rows);
  file.write_column(schema::selection::rank.path(), mine(table.rank), 0, rows);
  file.write_column(schema::selection::delta_h.path(), mine(table.delta_h), 0, rows);
  file.write_column(schema::selection::penalty.path(), mine(table.penalty), 0, rows);
  file.write_column(schema::selection::gain.path(), mine(table.gain), 0, rows);
  file.write_column(schema::selection::cross_entropy.path(), mine(table.cross_entropy), 0, rows);
  file.write_column(schema::selection::root_word.path(),
                    comm.rank() == 0 ? table.root_word : std::vector<std::string>(), 0, rows);
  file.write_column(schema::selection::wge.path(), mine(table.wge), 0, rows);
  file.write_column(schema::selection::flags.path(), mine(table.flags), 0, rows);
  set_attribute(file, schema::selection::stop_rank, selection.stop_rank);
  set_attribute(file, schema::selection::h_initial, selection.h_initial);
  set_attribute(file, schema::selection::repr_tokens, stats.repr_tokens);
  set_attribute(file, schema::selection::lexicon, static_cast<std::uint64_t>(stats.lexicon.size()));
  set_attribute(file, schema::selection::in_seed, in_seed);
  set_attribute(file, schema::selection::left_out, left_out);
}

}  // namespace tdcone::results
