// Lexical diversity of a pair (text/lexical_diversity.hpp, diversity_builder.hpp):
// hand-computed BLEU without brevity penalty, unigram precision, length ratio
// and every marker bit, one rule a test; the n-gram index against a naive count.
#include "tdcone/text/lexical_diversity.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tdcone/text/share_builder.hpp"

namespace tdcone::text {
namespace {

using namespace schema;  // the PairMarker bits

// The matches and lengths of each pair of `lines` (TSV src \t tgt), read as score reads them.
struct Read {
  TokenizedShare share;
  Vocabulary vocabulary;
  NgramMatches matches(std::size_t i) const { return share.diversity.matches(i, share.tgt_len[i]); }
  std::uint16_t markers(std::size_t i) const { return share.diversity.markers()[i]; }
  double bleu(std::size_t i) const { return pair_bleu(matches(i), share.tgt_len[i]); }
};

std::unique_ptr<Read> read(const std::vector<std::string>& lines, ReadOptions options = {}) {
  auto result = std::make_unique<Read>();
  options.diversity = true;
  ShareBuilder builder(result->share, options, result->vocabulary);
  for (const auto& line : lines) builder.add({line, false});
  builder.finish();
  return result;
}

NgramMatches matches_of(const std::string& line) { return read({line})->matches(0); }

TEST(LexicalDiversity, MatchesAreClippedByTheInputsCount) {
  // "the" three times in the output, twice in the input: m_1 = 2 of c_1 = 3;
  // "the the" (twice) and "the the the" are not in the input.
  EXPECT_EQ(matches_of("the cat the\tthe the the"), (NgramMatches{2, 0, 0, 0}));
  // BLEU = (2/3 · (0+1)/(2+1) · (0+1)/(1+1) · (0+1)/(0+1))^(1/4) = (1/9)^(1/4) = 1/√3.
  EXPECT_DOUBLE_EQ(pair_bleu({2, 0, 0, 0}, 3), 1 / std::sqrt(3.0));
  EXPECT_DOUBLE_EQ(pair_unigram_precision({2, 0, 0, 0}, 3), 2.0 / 3);
}

TEST(LexicalDiversity, OrdersTwoToFourAreAddOneSmoothed) {
  // a b c d | x: m = 4, 3, 2, 1 of c = 5, 4, 3, 2.
  EXPECT_EQ(matches_of("a b c d e\ta b c d x"), (NgramMatches{4, 3, 2, 1}));
  // p_1 = 4/5 unsmoothed; p_2 = 4/5, p_3 = 3/4, p_4 = 2/3: the product is 0.32.
  EXPECT_DOUBLE_EQ(pair_bleu({4, 3, 2, 1}, 5), std::pow(0.32, 0.25));
  // One word: p_2..p_4 = (0+1)/(0+1) = 1, so BLEU = p_1^(1/4).
  EXPECT_DOUBLE_EQ(pair_bleu({1, 0, 0, 0}, 1), 1.0);
}

TEST(LexicalDiversity, NgramsAreOverTokenSequencesNotTypeSets) {
  // "b a" against "a b": both words match, the bigram does not.
  EXPECT_EQ(matches_of("a b\tb a"), (NgramMatches{2, 0, 0, 0}));
  EXPECT_DOUBLE_EQ(pair_bleu({2, 0, 0, 0}, 2), std::pow(0.5, 0.25));  // 1 · 1/2 · 1 · 1
}

TEST(LexicalDiversity, ACopyScoresOne) {
  auto r = read({"a b c\ta b c"});
  EXPECT_EQ(r->matches(0), (NgramMatches{3, 2, 1, 0}));
  EXPECT_DOUBLE_EQ(r->bleu(0), 1.0);  // 3/3 · 3/3 · 2/2 · 1/1
  EXPECT_EQ(r->markers(0), copy);
}

TEST(LexicalDiversity, NoMatchingWordIsZeroAndAnEmptyOutputIsNaN) {
  EXPECT_EQ(matches_of("a b\tc d"), (NgramMatches{0, 0, 0, 0}));
  EXPECT_EQ(pair_bleu({0, 0, 0, 0}, 2), 0.0);
  EXPECT_EQ(pair_unigram_precision({0, 0, 0, 0}, 2), 0.0);
  EXPECT_TRUE(std::isnan(pair_bleu({0, 0, 0, 0}, 0)));
  EXPECT_TRUE(std::isnan(pair_unigram_precision({0, 0, 0, 0}, 0)));
}

TEST(LexicalDiversity, LengthRatioIsTheLongerOverTheShorter) {
  EXPECT_EQ(length_ratio(3, 6), 2.0);
  EXPECT_EQ(length_ratio(6, 3), 2.0);
  EXPECT_EQ(length_ratio(4, 4), 1.0);
  EXPECT_EQ(length_ratio(0, 2), std::numeric_limits<double>::infinity());
  EXPECT_EQ(length_ratio(2, 0), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(length_ratio(0, 0)));
}

TEST(LexicalDiversity, BothSidesEmptyAreACopyWithoutBleu) {
  auto r = read({"\t", "a\t"});
  EXPECT_EQ(r->markers(0), copy);
  EXPECT_TRUE(std::isnan(r->bleu(0)));
  EXPECT_EQ(r->markers(1), 0);
  EXPECT_TRUE(std::isnan(r->bleu(1)));  // an empty output
}

TEST(LexicalDiversity, BadLinesHaveNothing) {
  auto r = read({"no tab here", "a\ta"});
  ASSERT_EQ(r->share.flags[0], schema::bad_line);
  EXPECT_EQ(r->markers(0), 0);
  EXPECT_EQ(r->matches(0), (NgramMatches{}));
  EXPECT_EQ(r->markers(1), copy);
}

TEST(LexicalDiversity, ARepeatedInputIsMatchedAgainstEachOutput) {
  // The second and third pairs repeat the input (tokenized once, indexed once).
  auto r = read({"a b c\ta b", "a b c\tc", "a b c\tc", "x\tc"});
  EXPECT_EQ(r->matches(0), (NgramMatches{2, 1, 0, 0}));
  EXPECT_EQ(r->matches(1), (NgramMatches{1, 0, 0, 0}));
  EXPECT_EQ(r->matches(2), (NgramMatches{1, 0, 0, 0}));  // the output repeated too
  EXPECT_EQ(r->matches(3), (NgramMatches{0, 0, 0, 0}));
}

TEST(LexicalDiversity, TheTokenizerOptionsOfTheScoreApply) {
  EXPECT_EQ(matches_of("A b\ta B"), (NgramMatches{2, 1, 0, 0}));  // lowercased by default
  ReadOptions keep_case;
  keep_case.tokenizer.lowercase = false;
  EXPECT_EQ(read({"A b\ta B"}, keep_case)->matches(0), (NgramMatches{0, 0, 0, 0}));
  // punct splits "end." into two tokens, whitespace does not.
  EXPECT_EQ(matches_of("the end.\tend ."), (NgramMatches{2, 1, 0, 0}));
  ReadOptions whitespace;
  whitespace.tokenizer.kind = TokenizerKind::whitespace;
  EXPECT_EQ(read({"the end.\tend ."}, whitespace)->matches(0), (NgramMatches{0, 0, 0, 0}));
}

TEST(LexicalDiversity, ReverseSwapsTheSidesFirst) {
  ReadOptions reverse;
  reverse.reverse = true;
  auto r = read({"x y\thttp://a x"}, reverse);  // src "http://a x", tgt "x y"
  EXPECT_EQ(r->share.tgt_len[0], 2u);
  EXPECT_EQ(r->matches(0), (NgramMatches{1, 0, 0, 0}));
  EXPECT_EQ(r->markers(0), src_url);
}

TEST(LexicalDiversity, TheOutputsMarkersAreTheInputsShifted) {
  auto r = read({"a?\t#b @c http://d e?"});
  EXPECT_EQ(r->markers(0), src_question | tgt_url | tgt_mention | tgt_hashtag | tgt_question);
  EXPECT_EQ(src_url << kTgtMarkerShift, tgt_url);
  EXPECT_EQ(src_question << kTgtMarkerShift, tgt_question);
}

TEST(LexicalDiversity, UrlsAreSchemesOrWwwAtAWordStart) {
  EXPECT_EQ(side_markers("see http://x.org"), src_url);
  EXPECT_EQ(side_markers("https://x"), src_url);
  EXPECT_EQ(side_markers("at WWW.Example.com today"), src_url);
  EXPECT_EQ(side_markers("HTTPS://X"), src_url);
  EXPECT_EQ(side_markers("(http://a)"), src_url);  // after punctuation: a word start
  EXPECT_EQ(side_markers("xhttp://a"), 0);         // inside a word
  EXPECT_EQ(side_markers("http:/a http www"), 0);  // not a scheme, no dot
  EXPECT_EQ(side_markers("awww.b"), 0);
}

// With slack the scan reads past the text (here bytes that would begin
// markers) and must find what the bounded scan finds, at any length.
TEST(LexicalDiversity, TheScanWithSlackFindsWhatTheBoundedScanFinds) {
  std::mt19937 random(11);
  const std::string alphabet = "htpsw:/.@#aHTW ?x";
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text(random() % 48, ' ');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    std::string padded = text + std::string(kMarkerScanSlack, '@');
    padded.replace(text.size(), 4, "www.");
    const std::string_view in_padded(padded.data(), text.size());
    ASSERT_EQ(side_markers(in_padded, true), side_markers(text)) << "'" << text << "'";
  }
}

TEST(LexicalDiversity, MentionsAreAnAtAtAWordStartBeforeAWordCharacter) {
  EXPECT_EQ(side_markers("hi @bob"), src_mention);
  EXPECT_EQ(side_markers("@_x"), src_mention);
  EXPECT_EQ(side_markers("@9"), src_mention);
  EXPECT_EQ(side_markers("\u201c@bob"), src_mention);  // after a quotation mark
  EXPECT_EQ(side_markers("@\u00e9l\u00e8ve"), src_mention);  // a letter beyond ASCII
  EXPECT_EQ(side_markers("mail a@b.com"), 0);           // an e-mail address
  EXPECT_EQ(side_markers("\u00e9@x"), 0);               // after a letter beyond ASCII
  EXPECT_EQ(side_markers("@ alone, @"), 0);
  // Far into a long text (found sixteen bytes a step), after ASCII and beyond.
  const std::string words = "\u00e9l\u00e8ve " + std::string(40, 'x');
  EXPECT_EQ(side_markers(words + " @bob"), src_mention);
  EXPECT_EQ(side_markers(words + "@bob " + words), 0);
  EXPECT_EQ(side_markers(words + "\u00e9@bob"), 0);
  EXPECT_EQ(side_markers(words + "\u00ab@bob"), src_mention);  // after a guillemet
  EXPECT_EQ(side_markers(words + " #x www.a " + words), src_hashtag | src_url);
}

TEST(LexicalDiversity, HashtagsAreAHashAtAWordStartBeforeAWordCharacter) {
  EXPECT_EQ(side_markers("#tag"), src_hashtag);
  EXPECT_EQ(side_markers("so #1"), src_hashtag);
  EXPECT_EQ(side_markers("##tag"), src_hashtag);  // the second # starts one
  EXPECT_EQ(side_markers("C# code"), 0);
  EXPECT_EQ(side_markers("# 1 and #"), 0);
}

TEST(LexicalDiversity, AQuestionEndsInAQuestionMarkTrailingWhiteSpaceAside) {
  EXPECT_EQ(side_markers("why?"), src_question);
  EXPECT_EQ(side_markers("?"), src_question);
  EXPECT_EQ(side_markers("why? \t "), src_question);
  EXPECT_EQ(side_markers("why?\u00a0\u3000"), src_question);  // no-break and ideographic spaces
  EXPECT_EQ(side_markers("why? no"), 0);
  EXPECT_EQ(side_markers("why?!"), 0);
  EXPECT_EQ(side_markers(""), 0);
  EXPECT_EQ(side_markers("   "), 0);
}

TEST(LexicalDiversity, EveryMarkerBitIsNamedOnce) {
  std::uint16_t all = 0;
  for (const MarkerBit& bit : marker_bits()) {
    EXPECT_EQ(all & bit.bit, 0) << bit.name;
    all |= bit.bit;
  }
  EXPECT_EQ(all, 511);
}

TEST(LexicalDiversity, CorpusBleuIsOfTheSumsWithoutSmoothing) {
  DiversitySums sums;
  sums.add({4, 3, 2, 1}, 5);  // c = 5, 4, 3, 2
  sums.add({2, 0, 0, 0}, 3);  // c = 3, 2, 1, 0
  EXPECT_EQ(sums.matches, (std::array<std::uint64_t, 4>{6, 3, 2, 1}));
  EXPECT_EQ(sums.ngrams, (std::array<std::uint64_t, 4>{8, 6, 4, 2}));
  EXPECT_DOUBLE_EQ(sums.bleu(), std::pow(6.0 / 8 * 3.0 / 6 * 2.0 / 4 * 1.0 / 2, 0.25));
  EXPECT_EQ(sums.unigram_precision(), 0.75);

  DiversitySums no_bigram;  // Σm_2 = 0: BLEU 0, though the pair's own BLEU is not
  no_bigram.add({2, 0, 0, 0}, 3);
  EXPECT_EQ(no_bigram.bleu(), 0.0);
  EXPECT_DOUBLE_EQ(no_bigram.unigram_precision(), 2.0 / 3);

  DiversitySums empty;  // Σc_1 = 0
  empty.add({}, 0);
  EXPECT_TRUE(std::isnan(empty.bleu()));
  EXPECT_TRUE(std::isnan(empty.unigram_precision()));

  DiversitySums both = no_bigram;
  both += sums;
  EXPECT_EQ(both.matches[0], 8u);
  EXPECT_EQ(both.ngrams[3], 2u);
}

TEST(LexicalDiversity, LongOutputsKeepTheirMatchesExactly) {
  std::string words;
  for (int i = 0; i < 300; ++i) words += (i ? " w" : "w") + std::to_string(i % 7);
  auto r = read({"a\tb", words + "\t" + words, "a b\ta b"});
  EXPECT_EQ(r->matches(1), (NgramMatches{300, 299, 298, 297}));
  EXPECT_DOUBLE_EQ(r->bleu(1), 1.0);
  EXPECT_EQ(r->matches(2), (NgramMatches{2, 1, 0, 0}));
}

// Σ over distinct n-grams of min(input count, output count), by brute force.
NgramMatches naive_matches(const std::vector<WordId>& input, const std::vector<WordId>& output) {
  NgramMatches m{};
  for (std::size_t n = 1; n <= kBleuOrders; ++n) {
    std::map<std::vector<WordId>, std::int64_t> in, out;
    for (std::size_t i = 0; i + n <= input.size(); ++i) ++in[{input.begin() + i, input.begin() + i + n}];
    for (std::size_t i = 0; i + n <= output.size(); ++i) ++out[{output.begin() + i, output.begin() + i + n}];
    for (const auto& [gram, count] : out) m[n - 1] += static_cast<std::uint32_t>(std::min(count, in[gram]));
  }
  return m;
}

// Rows are made in batches: a run of pairs with the same input, bad lines
// and one-sided lines across the batch bounds get the rows each pair gets
// read alone.
TEST(LexicalDiversity, BatchesGiveEachPairItsOwnRow) {
  std::mt19937 random(5);
  const std::vector<std::string> words = {"a", "b", "c", "#d", "@e", "http://f.g", "h?", "i"};
  auto sentence = [&] {
    std::string text;
    for (std::size_t n = random() % 7; n-- > 0;) text += words[random() % words.size()] + (n ? " " : "");
    return text;
  };
  std::vector<std::string> lines;
  std::string input = sentence();
  for (int i = 0; i < 1500; ++i) {
    if (random() % 4 == 0) input = sentence();  // else the input repeats, as in the Twitter URL file
    if (random() % 50 == 0) {
      lines.push_back("a bad line, no tab");
    } else {
      lines.push_back(input + "\t" + (random() % 10 == 0 ? input : sentence()));
    }
  }
  const auto all = read(lines);
  ASSERT_EQ(all->share.size(), lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto alone = read({lines[i]});
    ASSERT_EQ(all->matches(i), alone->matches(0)) << "line " << i << ": " << lines[i];
    ASSERT_EQ(all->markers(i), alone->markers(0)) << "line " << i << ": " << lines[i];
  }
}

TEST(LexicalDiversity, TheIndexCountsAsTheNaiveDefinition) {
  std::mt19937 random(7);
  NgramOverlap overlap;
  for (int trial = 0; trial < 2000; ++trial) {
    const WordId words = 1 + random() % 4;  // few words: many repeated n-grams
    std::vector<WordId> input(random() % 40), output(random() % 40);
    for (auto& w : input) w = 1 + random() % words;
    for (auto& w : output) w = 1 + random() % words;
    overlap.set_input(input);
    ASSERT_EQ(overlap.match(output), naive_matches(input, output)) << "trial " << trial;
    ASSERT_EQ(overlap.match(input), naive_matches(input, input)) << "trial " << trial;  // matched twice: left_ resets
  }
}

// Inputs of many distinct words: some share an entry of the unigram table
// (256 of them), and their output words must be looked up all the same.
TEST(LexicalDiversity, TheIndexCountsAsTheNaiveDefinitionOverManyWords) {
  std::mt19937 random(11);
  NgramOverlap overlap;
  for (int trial = 0; trial < 300; ++trial) {
    const WordId words = 50 + random() % 5000;
    std::vector<WordId> input(random() % 300), output(random() % 300);
    for (auto& w : input) w = 1 + random() % words;
    for (std::size_t j = 0; j < output.size(); ++j)  // half copied from the input: long n-grams match
      output[j] = !input.empty() && random() % 2 ? input[(j + random() % 3) % input.size()] : 1 + random() % words;
    overlap.set_input(input);
    ASSERT_EQ(overlap.match(output), naive_matches(input, output)) << "trial " << trial;
    ASSERT_EQ(overlap.match(input), naive_matches(input, input)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace tdcone::text
