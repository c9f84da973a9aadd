#pragma once
// Hand-sized corpora for the mathematics tests: whitespace-separated pairs,
// aligned and scored by the stages of the score engine (vocabulary,
// accumulate, finish, subset scores) on one rank (MPI_COMM_SELF).
#include <boost/mpi/communicator.hpp>
#include <mpi.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hand_share.hpp"
#include "tdcone/entropy/pair_groups.hpp"
#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/engine/accumulate_stage.hpp"
#include "tdcone/engine/vocabulary_stage.hpp"

namespace tdcone::test_support {

class TinyCorpus {
 public:
  explicit TinyCorpus(align::AlignMode mode = align::AlignMode::uniform,
                      const align::EmbeddingTable* embeddings = nullptr)
      : aligner_(mode, embeddings) {}

  /// Adds a corpus pair (x -> y) and returns its own TD-CONE.
  double add(const std::string& x, const std::string& y) {
    const auto xs = types(x), ys = types(y);
    append(corpus_, xs, ys);
    aligner_.split(xs, ys, split_);
    return aligner_.pair_tdcone(split_, ys.size());
  }
  /// Adds a reference pair (for TD-CONE_REL).
  void add_reference(const std::string& x, const std::string& y) { append(reference_, types(x), types(y)); }

  /// Puts the corpus pairs in `groups` (a group per pair) instead of all in
  /// group 0, the corpus.
  void set_groups(entropy::PairGroups groups) { given_groups_ = std::move(groups); }

  /// The scores of every subset (and, with reference pairs, TD-CONE_REL with `lambda`).
  std::vector<entropy::SubsetScore> scores(double lambda = 0.1, const ProgressCallback& progress = {}) {
    build();
    return entropy::score_subsets(MPI_COMM_SELF, *q_, groups_, words_.global, p_ ? &*p_ : nullptr, lambda, progress);
  }
  /// The corpus scores (subset 0).
  entropy::SubsetScore score(double lambda = 0.1) { return scores(lambda)[0]; }

  /// The corpus matrix M as "x>y" -> weight, NULL written "NULL".
  std::map<std::string, double> cells() {
    build();
    std::vector<std::string> word_of(words_.global.first_id.back());
    for (text::WordId w = 1; w < vocabulary.size(); ++w) word_of[words_.global.global_id[w]] = vocabulary.word(w);
    word_of[0] = "NULL";
    std::map<std::string, double> out;
    matrix::PartitionedMatrix::RowCursor rows(*q_);
    const auto& layout = q_->layout();
    while (rows.next()) {
      for (const matrix::MatrixCell& c : rows.cells())
        out[word_of[rows.row_id()] + ">" + word_of[layout.column(c.key)]] += q_->scale().real(c.weight);
    }
    return out;
  }

  std::vector<text::WordId> types(const std::string& sentence) { return sorted_types(vocabulary, sentence); }

  text::Vocabulary vocabulary;

 private:
  static void append(text::TokenizedShare& share, const std::vector<text::WordId>& x, const std::vector<text::WordId>& y) {
    share.flags.push_back(0);
    share.src_len.push_back(static_cast<std::uint32_t>(x.size()));
    share.tgt_len.push_back(static_cast<std::uint32_t>(y.size()));
    for (const auto* side : {&x, &y}) {
      share.type_start.push_back(share.types.size());
      share.type_count.push_back(static_cast<std::uint32_t>(side->size()));
      share.types.insert(share.types.end(), side->begin(), side->end());
    }
    share.total_lines = share.size();
  }

  void build() {
    const boost::mpi::communicator self(MPI_COMM_SELF, boost::mpi::comm_attach);
    const bool has_reference = reference_.size() > 0;
    groups_ = given_groups_ ? *given_groups_ : entropy::corpus_groups(corpus_);
    words_ = engine::route_vocabulary(self, corpus_, has_reference ? &reference_ : nullptr, vocabulary, groups_);
    const auto layout = matrix::MatrixLayout::make(words_.global, 0, groups_.group_count());
    q_.emplace(layout, matrix::WeightScale(corpus_.total_lines));
    // accumulate releases the types it aligns, and pairs are added between builds: it gets copies.
    text::TokenizedShare corpus = corpus_, reference = reference_;
    engine::accumulate(self, corpus, groups_.group_of_pair, aligner_, words_.routes, *q_, {}, {}, nullptr);
    q_->finish();
    p_.reset();
    if (has_reference) {
      p_.emplace(layout.with_groups(1), matrix::WeightScale(reference_.total_lines));
      engine::accumulate(self, reference, {}, aligner_, words_.routes, *p_, {}, {}, nullptr);
      p_->finish();
    }
  }

  align::PairAligner aligner_;
  align::PairSplit split_;
  text::TokenizedShare corpus_, reference_;
  std::optional<entropy::PairGroups> given_groups_;
  entropy::PairGroups groups_;
  engine::RoutedVocabulary words_;
  std::optional<matrix::PartitionedMatrix> q_, p_;
};

}  // namespace tdcone::test_support
