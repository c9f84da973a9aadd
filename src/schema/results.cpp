#include "tdcone/schema/results.hpp"

#include <algorithm>

namespace tdcone::schema {

std::string Column::path() const { return std::string(group) + "/" + name; }

std::string Attribute::name_with(std::string_view suffix) const {
  std::string full = name;
  full += suffix;
  return full;
}

std::vector<std::string> Table::required_columns() const {
  std::vector<std::string> names;
  for (const Column* column : columns)
    if (column->presence == Presence::required) names.emplace_back(column->name);
  return names;
}

const std::vector<Table>& tables() {
  static const std::vector<Table> all = {
      {inputs::group, "every tdcone command", false, {&inputs::path, &inputs::size, &inputs::lines, &inputs::fingerprint}, {}},
      {corpus::group,
       "tdcone score, sweep (and balance when it scores)",
       false,
       {},
       {&corpus::tdcone, &corpus::cond_entropy, &corpus::n_pairs, &corpus::vx, &corpus::vy, &corpus::nnz,
        &corpus::tdcone_rel, &corpus::kl_pq, &corpus::kl_pu, &corpus::bleu, &corpus::unigram_precision,
        &corpus::n_duplicates, &corpus::n_in_reference, &corpus::vx_with_vector, &corpus::vy_with_vector,
        &corpus::spread_words, &corpus::spread_by_vectors, &corpus::vector_share_vx, &corpus::vector_share_vy,
        &corpus::vector_share_mass}},
      {pairs::group,
       "tdcone score",
       true,
       {&pairs::pair_id, &pairs::tdcone, &pairs::rank, &pairs::flags, &pairs::src_len, &pairs::tgt_len, &pairs::score,
        &pairs::id, &pairs::shard, &pairs::sweep_mask, &pairs::bleu, &pairs::unigram_precision, &pairs::len_ratio,
        &pairs::markers, &pairs::dup_of, &pairs::src_group, &pairs::src_group_size},
       {}},
      {shards::group,
       "tdcone score --shards",
       true,
       {&shards::shard, &shards::file, &shards::n_pairs, &shards::tdcone, &shards::kl_pq, &shards::kl_pu,
        &shards::tdcone_rel, &shards::bleu, &shards::unigram_precision, &shards::n_sampled, &shards::p_best},
       {}},
      {sweep::group,
       "tdcone sweep",
       true,
       {&sweep::threshold, &sweep::n_pairs, &sweep::n_sampled, &sweep::tdcone, &sweep::kl_pq, &sweep::kl_pu,
        &sweep::tdcone_rel, &sweep::bleu, &sweep::unigram_precision, &sweep::p_best},
       {&sweep::sweep_by, &sweep::direction}},
      {labels::group,
       "tdcone score --by-label",
       true,
       {&labels::label, &labels::n_pairs, &labels::tdcone, &labels::cond_entropy, &labels::kl_pq, &labels::kl_pu,
        &labels::tdcone_rel, &labels::bleu, &labels::unigram_precision, &labels::n_sampled, &labels::p_best},
       {}},
      {lengths::group,
       "tdcone score --length-buckets",
       true,
       {&lengths::max_src_len, &lengths::n_pairs, &lengths::tdcone, &lengths::kl_pq, &lengths::kl_pu,
        &lengths::tdcone_rel, &lengths::bleu, &lengths::unigram_precision, &lengths::n_sampled, &lengths::p_best},
       {}},
      {replicates::group,
       "tdcone score and sweep with --sample",
       true,
       {&replicates::table, &replicates::row, &replicates::replicate, &replicates::n_sampled, &replicates::tdcone,
        &replicates::kl_pq, &replicates::kl_pu, &replicates::tdcone_rel, &replicates::bleu,
        &replicates::unigram_precision},
       {&replicates::sample, &replicates::replicates, &replicates::seed}},
      {intervals::group,
       "tdcone score and sweep with --sample",
       true,
       {&intervals::table, &intervals::row, &intervals::metric, &intervals::value, &intervals::mean, &intervals::sd,
        &intervals::lo, &intervals::hi},
       {&intervals::ranked_by}},
      {curves::group,
       "tdcone score and sweep with --at-sizes",
       true,
       {&curves::table, &curves::row, &curves::metric, &curves::size, &curves::n_sampled, &curves::mean, &curves::sd,
        &curves::lo, &curves::hi},
       {&curves::replicates, &curves::seed}},
      {selection::group,
       "tdcone select",
       true,
       {&selection::pair_id, &selection::rank, &selection::delta_h, &selection::penalty, &selection::gain,
        &selection::cross_entropy, &selection::root_word, &selection::wge, &selection::flags},
       {&selection::stop_rank, &selection::h_initial, &selection::repr_tokens, &selection::lexicon, &selection::in_seed,
        &selection::left_out}},
      {balance::group,
       "tdcone balance",
       true,
       {&balance::pair_id, &balance::combination, &balance::kept, &balance::rank_in_combination, &balance::flags},
       {&balance::mode, &balance::rank_by, &balance::min_share, &balance::labels, &balance::n_labelled,
        &balance::n_kept, &balance::share_std_before, &balance::share_std_after, &balance::marginal_deviation}},
      {combinations::group,
       "tdcone balance",
       true,
       {&combinations::combination, &combinations::before, &combinations::target, &combinations::after,
        &combinations::under_represented},
       {}},
  };
  return all;
}

const Table* find_table(std::string_view group) {
  const auto& all = tables();
  const auto found = std::ranges::find(all, group, [](const Table& table) { return std::string_view(table.group); });
  return found == all.end() ? nullptr : &*found;
}

const std::vector<const Attribute*>& root_attributes() {
  static const std::vector<const Attribute*> all = {
      &root::tdcone_version, &root::command,     &root::config,         &root::n_ranks,
      &root::created,        &root::n_lines,     &root::n_scored,       &root::n_flagged,
      &root::seconds,        &root::peak_rss_bytes, &root::peak_rss_bytes_per_rank, &root::memory_budget_bytes,
      &root::inputs,         &root::input_sizes, &root::input_lines,    &root::input_fingerprints,
  };
  return all;
}

const char* type_name(Type type) {
  switch (type) {
    case Type::u8: return "u8";
    case Type::u16: return "u16";
    case Type::u32: return "u32";
    case Type::u64: return "u64";
    case Type::f64: return "f64";
    case Type::string: return "string";
    case Type::u64_array: return "u64[]";
  }
  return "?";
}

const char* presence_name(Presence presence) {
  switch (presence) {
    case Presence::required: return "required";
    case Presence::always: return "always";
    case Presence::optional: return "optional";
    case Presence::prefix: return "prefix";
    case Presence::legacy: return "legacy";
  }
  return "?";
}

}  // namespace tdcone::schema
