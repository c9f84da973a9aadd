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

  /// Makes room for the pairs of `text_bytes` more bytes of corpus, so that
  /// the word types, the share's largest vector, are not copied (and their
  /// pages not faulted in twice) as they grow: room for more types than most
  /// corpora have; pages never written are never taken from the system.
  void reserve(std::uint64_t text_bytes);
  /// Adds the pair of one corpus line. Returns the reason when the line is
  /// bad (it is flagged bad_line), else "".
  std::string add(const io::Line& line);
  /// Adds a pair of a parallel corpus: each line is a whole side. Returns the
  /// reason when it is bad (`tgt_side`: because of the tgt line), else "".
  std::string add_pair(const io::Line& src, const io::Line& tgt, bool& tgt_side);
  /// Hands the label values over to the share, after the last pair.
  void finish();

  /// Why the last pair added has no usable label ("" when it has one, or is a bad line).
  const std::string& label_problem() const { return label_problem_; }

 private:
  std::string too_long() const;
  std::string add_record(io::Record& record);
  void add_labels(const io::Record& record);
  std::string flag(std::string reason);
  // The last sentence of one side: corpora such as the Twitter URL corpus
  // repeat a sentence over many consecutive pairs, tokenized once this way.
  struct LastSentence {
    std::string text;
    std::size_t begin = 0, end = 0;  // its types (and counts) in the share
    std::uint32_t length = 0;        // tokens
    bool known = false;
  };

  std::uint32_t add_side(std::string_view sentence, LastSentence& last);
  std::uint32_t add_types(std::string_view sentence);
  std::uint32_t repeat_types(std::size_t begin, std::size_t end, std::uint32_t length);

  TokenizedShare& share_;
  const ReadOptions& options_;
  Vocabulary& vocabulary_;
  io::RecordParser parser_;
  io::RecordParser whole_line_;  // a side of a parallel corpus: the whole line
  io::Record src_record_, tgt_record_;
  Tokenizer tokenizer_;
  std::vector<std::string_view> tokens_;
  LastSentence last_src_, last_tgt_;
  std::unique_ptr<LabelInterner> labels_;  // with labels only
  std::string label_problem_;
};

}  // namespace tdcone::text
