#pragma once
// One rank's pairs, line by line, into the tables of a TokenizedShare: the
// parsing, tokenizing and interning of each pair, with no MPI (numbering the
// pairs over the ranks is the collective reader's, mpi/share_reader.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tdcone/io/line_reader.hpp"
#include "tdcone/io/record.hpp"
#include "tdcone/text/diversity_builder.hpp"
#include "tdcone/text/dedup_key.hpp"
#include "tdcone/text/label_interner.hpp"
#include "tdcone/text/tokenized_share.hpp"
#include "tdcone/text/tokenizer.hpp"
#include "tdcone/text/vocabulary.hpp"

namespace tdcone::text {

/// Appends pairs to `share`, read with `options`, interning words into `vocabulary`.
class ShareBuilder {
 public:
  ShareBuilder(TokenizedShare& share, const ReadOptions& options, Vocabulary& vocabulary);
  ~ShareBuilder();
  ShareBuilder(const ShareBuilder&) = delete;
  ShareBuilder& operator=(const ShareBuilder&) = delete;

  /// Announces about `text_bytes` more bytes of corpus lines to add. Once
  /// the first pairs are in, the share's vectors are reserved for the rest in
  /// their proportions, so that none is copied (and its pages faulted in
  /// twice) as it grows.
  void expect_bytes(std::uint64_t text_bytes) { expected_bytes_ += text_bytes; }
  /// Adds the pair of one corpus line. Returns the reason when the line is
  /// bad (it is flagged bad_line), else "".
  std::string add(const io::Line& line);
  /// Adds a pair of a parallel corpus: each line is a whole side. Returns the
  /// reason when it is bad (`tgt_side`: because of the tgt line), else "".
  std::string add_pair(const io::Line& src, const io::Line& tgt, bool& tgt_side);
  /// Makes the last pairs' diversity rows and hands the label values over to
  /// the share, after the last pair.
  void finish();

  /// Why the last pair added has no usable label ("" when it has one, or is a bad line).
  const std::string& label_problem() const { return label_problem_; }

 private:
  void reserve_rest();
  std::string too_long() const;
  std::string add_record(io::Record& record);
  void add_labels(const io::Record& record);
  std::string flag(std::string reason);
  // The last sentence of one side: corpora such as the Twitter URL corpus
  // repeat a sentence over many consecutive pairs, tokenized once this way.
  struct LastSentence {
    std::string text;
    std::size_t side = 0;      // its side in the share (type_start, type_count)
    std::uint32_t length = 0;  // tokens
    DedupKey key;              // with ReadOptions::dedup
    bool known = false;
  };

  enum Side { src, tgt };
  std::uint32_t add_side(std::string_view sentence, LastSentence& last, Side side);
  std::uint32_t add_types(std::string_view sentence, Side side);
  std::uint32_t repeat_side(std::size_t side, std::uint32_t length);

  TokenizedShare& share_;
  const ReadOptions& options_;
  Vocabulary& vocabulary_;
  io::RecordParser parser_;
  io::RecordParser whole_line_;  // a side of a parallel corpus: the whole line
  io::Record src_record_, tgt_record_;
  Tokenizer tokenizer_;
  std::vector<std::string_view> tokens_;
  DedupKeyMaker dedup_;
  LastSentence last_src_, last_tgt_;
  std::uint64_t expected_bytes_ = 0, added_bytes_ = 0;  // of corpus lines (expect_bytes(), add())
  std::unique_ptr<LabelInterner> labels_;  // with labels only
  std::unique_ptr<DiversityBuilder> diversity_;  // with ReadOptions::diversity only
  std::string label_problem_;
};

}  // namespace tdcone::text
