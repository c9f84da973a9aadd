#include "tdcone/cli/option_names.hpp"

#include <cstddef>
#include <utility>

namespace tdcone::cli {

namespace {

// Every option a module's message names, as the command line spells it.
constexpr std::pair<Option, std::string_view> kNames[] = {
    {Option::align, "--align"},
    {Option::ascending, "--ascending"},
    {Option::available, "--available"},
    {Option::by_label, "--by-label"},
    {Option::checkpoint, "--checkpoint"},
    {Option::dedup, "--dedup"},
    {Option::descending, "--descending"},
    {Option::embeddings, "--embeddings"},
    {Option::force, "--force"},
    {Option::format, "--format"},
    {Option::group, "--group"},
    {Option::id_col, "--id-col"},
    {Option::id_field, "--id-field"},
    {Option::input, "--input"},
    {Option::jaded, "--jaded"},
    {Option::label_buckets, "--label-buckets"},
    {Option::label_cols, "--label-cols"},
    {Option::label_fields, "--label-fields"},
    {Option::label_names, "--label-names"},
    {Option::length_buckets, "--length-buckets"},
    {Option::lines_only, "--lines-only"},
    {Option::max_bad_fraction, "--max-bad-fraction"},
    {Option::max_line_bytes, "--max-line-bytes"},
    {Option::memory, "--memory"},
    {Option::min_share, "--min-share"},
    {Option::mode, "--mode"},
    {Option::no_lowercase, "--no-lowercase"},
    {Option::on_bad_line, "--on-bad-line"},
    {Option::output, "--output"},
    {Option::quiet, "--quiet"},
    {Option::rank_by, "--rank-by"},
    {Option::ranking, "--ranking"},
    {Option::reference, "--reference"},
    {Option::reference_src_file, "--reference-src-file"},
    {Option::reference_tgt_file, "--reference-tgt-file"},
    {Option::representative, "--representative"},
    {Option::resume, "--resume"},
    {Option::round_size, "--round-size"},
    {Option::score_col, "--score-col"},
    {Option::score_field, "--score-field"},
    {Option::seed_corpus, "--seed-corpus"},
    {Option::selected, "--selected"},
    {Option::shards, "--shards"},
    {Option::side, "--side"},
    {Option::size, "--size"},
    {Option::sort_by, "--sort-by"},
    {Option::src_col, "--src-col"},
    {Option::src_field, "--src-field"},
    {Option::src_file, "--src-file"},
    {Option::stall_timeout, "--stall-timeout"},
    {Option::sweep_by, "--sweep-by"},
    {Option::text, "--text"},
    {Option::tgt_col, "--tgt-col"},
    {Option::tgt_field, "--tgt-field"},
    {Option::tgt_file, "--tgt-file"},
    {Option::thresholds, "--thresholds"},
    {Option::to, "--to"},
    {Option::tokenizer, "--tokenizer"},
    {Option::unadapted, "--unadapted"},
    {Option::where, "--where"},
    {Option::where_result, "--where-result"},
};

// One row an option, in the order of the enum: option_names() is indexed by it.
constexpr bool in_enum_order() {
  if (std::size(kNames) != kOptionCount) return false;
  for (std::size_t i = 0; i < std::size(kNames); ++i)
    if (static_cast<std::size_t>(kNames[i].first) != i || !kNames[i].second.starts_with("--")) return false;
  return true;
}
static_assert(in_enum_order(), "kNames: one \"--name\" per Option, in the enum's order");

}  // namespace

const OptionNames& option_names() {
  static const OptionNames names = [] {
    OptionNames words{};
    for (std::size_t i = 0; i < words.size(); ++i) words[i] = kNames[i].second;
    return words;
  }();
  return names;
}

void install_option_names() { set_option_names(option_names()); }

}  // namespace tdcone::cli
