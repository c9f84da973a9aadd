#pragma once
// Hand-sized corpora for the mathematics tests: whitespace-separated pairs,
// aligned and scored through the same distributed path as `tdcone score`,
// on one rank (MPI_COMM_SELF).
#include <mpi.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tdcone/align/count_matrix.hpp"
#include "tdcone/entropy/subset_scores.hpp"
#include "tdcone/entropy/tdcone.hpp"

namespace tdcone::test_support {

class TinyCorpus {
 public:
  explicit TinyCorpus(align::AlignMode mode = align::AlignMode::uniform,
                      const align::EmbeddingTable* embeddings = nullptr)
      : aligner_(mode, embeddings) {}

  /// Adds a corpus pair (x -> y) and returns its own TD-CONE.
  double add(const std::string& x, const std::string& y) {
    add_to(corpus_, x, y, mpi::WordMarks::corpus_input, mpi::WordMarks::corpus_output);
    return entropy::pair_tdcone(pair_, types(y).size());
  }
  /// Adds a reference pair (for TD-CONE_REL).
  void add_reference(const std::string& x, const std::string& y) {
    add_to(reference_, x, y, mpi::WordMarks::reference_input, mpi::WordMarks::reference_output);
  }

  /// The corpus scores (and, with reference pairs, TD-CONE_REL with `lambda`).
  entropy::SubsetScore score(double lambda = 0.1) {
    marks_.resize(vocabulary.size());
    const auto global = mpi::build_global_vocabulary(MPI_COMM_SELF, vocabulary, marks_);
    const auto q = mpi::PartitionedMatrix::reduce(MPI_COMM_SELF, {&corpus_, 1}, global);
    const auto p = mpi::PartitionedMatrix::reduce(MPI_COMM_SELF, {&reference_, 1}, global);
    entropy::PairGroups groups;
    groups.subsets_of_group = {{0}};
    return entropy::score_subsets(MPI_COMM_SELF, q, groups, global, has_reference_ ? &p : nullptr, lambda)[0];
  }

  /// The corpus matrix M as "x>y" -> weight, NULL written "NULL".
  std::map<std::string, double> cells() const {
    std::map<std::string, double> out;
    auto name = [&](text::WordId w) { return w == text::kNullWord ? std::string("NULL") : vocabulary.word(w); };
    for (const auto& [key, weight] : corpus_.cells())
      out[name(align::LocalCountMatrix::row_of(key)) + ">" + name(align::LocalCountMatrix::column_of(key))] = weight;
    return out;
  }

  std::vector<text::WordId> types(const std::string& sentence) {
    std::istringstream words(sentence);
    std::vector<text::WordId> ids;
    for (std::string w; words >> w;) ids.push_back(vocabulary.intern(w));
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  }

  text::Vocabulary vocabulary;

 private:
  void add_to(align::LocalCountMatrix& matrix, const std::string& x, const std::string& y, unsigned in, unsigned out) {
    const auto xs = types(x), ys = types(y);
    aligner_.align(xs, ys, pair_);
    matrix.add(pair_);
    marks_.resize(vocabulary.size());
    for (auto w : xs) marks_.set(w, in);
    for (auto w : ys) {
      marks_.set(w, out);
      if (out == mpi::WordMarks::corpus_output) marks_.set(w, mpi::WordMarks::group_output(0));
    }
    if (&matrix == &reference_) has_reference_ = true;
  }

  align::PairAligner aligner_;
  align::PairMatrix pair_;
  align::LocalCountMatrix corpus_, reference_;
  mpi::WordMarks marks_{1, 1};
  bool has_reference_ = false;
};

}  // namespace tdcone::test_support
