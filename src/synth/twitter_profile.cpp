#include "tdcone/synth/profiles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <string_view>
#include <vector>

#include "tdcone/synth/line_columns.hpp"
#include "tdcone/synth/style_labels.hpp"
#include "tdcone/synth/word_list.hpp"
#include "tdcone/synth/zipf_sampler.hpp"

namespace tdcone::synth {

namespace {

// The twitter profile: runs of consecutive lines share a news headline (src);
// each line is a candidate tweet (tgt) about it. Runs come in stories (a few
// runs in a row) whose headlines share keywords. Calibrated on the Twitter URL
// corpus: docs/synth-calibration.md.
struct TwitterShape {
  double run_continue = 12.0 / 13;  // a run goes on with this chance (geometric, mean ~13) ...
  std::uint64_t max_run = 60;       // ... up to this many lines
  double new_story = 0.08;          // chance a run starts a new story
  std::uint32_t keywords = 10;      // made-up names and terms per story
  double keyword = 0.4;             // chance a headline word is one of its story's keywords
  double headline_exponent = 1.15, headline_offset = 2.7;  // Zipf-Mandelbrot: P(k) ~ (k + 1 + offset)^-exponent
  double tweet_exponent = 1.4, tweet_offset = 6;           // tweets: a steeper tail, a flatter head
  std::uint32_t content_rank = 100;  // headline words below this rank are function words, never copied on purpose
  std::array<double, 7> closeness{0.46, 0.18, 0.10, 0.08, 0.06, 0.06, 0.06};  // P(k of 6 annotators say paraphrase)
  std::array<double, 7> share{0.03, 0.25, 0.4, 0.45, 0.4, 0.42, 0.6};  // k < 4: P(copy a content word); else P(keep)
  double exact = 0.2;               // share of the k = 6 candidates that copy the headline
  double mark = 0.07;               // chance a tweet token is punctuation
  double special = 0.02;            // chance a tweet token is a #hashtag, @handle, number or link
  double new_handle = 0.02;         // among the handles: accounts never seen before
  double link = 0.01;               // among the specials: t.co links (each one new)
};
constexpr TwitterShape kShape;

// A token of a headline or tweet: its kind in the top byte, its value below.
enum Kind : std::uint64_t { kWord, kName, kNumber, kMark, kHandle, kLink };
constexpr std::uint64_t kHashtag = std::uint64_t{1} << 55;  // flag: written "#token"
constexpr std::uint64_t make_token(Kind kind, std::uint64_t value) {
  return (std::uint64_t{kind} << 56) | (value & (kHashtag - 1));
}
constexpr Kind kind_of(std::uint64_t token) { return static_cast<Kind>(token >> 56); }
constexpr std::uint64_t value_of(std::uint64_t token) { return token & (kHashtag - 1); }

// Punctuation; the first kAttached follow the previous token without a space.
constexpr std::string_view kMarks[] = {",", ".", ":", "?", "!", "'s", "...", "-", "&", "|", "\""};
constexpr std::uint64_t kAttached = 7;
constexpr std::uint64_t kComma = 0, kPeriod = 1, kColon = 2, kQuestion = 3, kPossessive = 5;

class TwitterWriter final : public LineSource {
 public:
  explicit TwitterWriter(const SynthOptions& options)
      : options_(options),
        words_(options.vocabulary, options.seed),
        headline_zipf_(options.vocabulary, kShape.headline_exponent, kShape.headline_offset),
        tweet_zipf_(options.vocabulary, kShape.tweet_exponent, kShape.tweet_offset),
        labels_(options) {
    // Mean and sd of quality = (k + U) / 7: the labels take it standardized.
    double mean_k = 0, mean_k2 = 0;
    for (std::uint32_t k = 0; k < 7; ++k) mean_k += k * kShape.closeness[k], mean_k2 += k * k * kShape.closeness[k];
    quality_mean_ = (mean_k + 0.5) / 7;
    quality_sd_ = std::sqrt(mean_k2 - mean_k * mean_k + 1.0 / 12) / 7;
  }

  void append_line(std::uint64_t index, std::string& out) override {
    if (index < run_.first || index >= run_.end) find_run(index);
    Rng rng((options_.seed * 0xD1342543DE82EF95ull + index) ^ 0x7477656574ull);  // "tweet"
    const Junk junk = pick_junk(options_.junk_fraction, rng);
    const std::uint32_t k = closeness(rng);
    const double quality = (k + rng.uniform()) / 7;

    const bool copy = junk == Junk::identical || (k == 6 && rng.chance(kShape.exact));
    if (junk == Junk::long_tgt) {
      tgt_.clear();
      for (std::uint32_t i = 200 + rng.below(201); i > 0; --i) tgt_.push_back(tweet_word(rng));
    } else if (!copy) {
      k >= 4 ? paraphrase(k, rng) : loose(k, rng);
    }

    if (junk != Junk::empty_src) out += run_.text;
    if (junk == Junk::no_tab) {
      out += '\n';
      return;
    }
    out += '\t';
    if (copy) {
      out += run_.text;
    } else if (junk != Junk::empty_tgt) {
      append_tokens(tgt_, rng.chance(0.6), false, out);
    }
    append_score_and_id(junk, quality, options_.seed, index, rng, out);
    if (options_.labels)  // formality: the headline's; arousal: the story's
      labels_.append(index, run_.number, run_.story, (quality - quality_mean_) / quality_sd_, out);
    out += '\n';
  }

 private:
  struct Run {
    std::uint64_t number = 0, first = 0, end = 0;  // its lines [first, end)
    std::uint64_t story = 0;                       // stories are numbered by the runs that start one
    std::vector<std::uint64_t> keywords;           // of the story
    std::vector<std::uint64_t> words;              // the headline
    std::vector<std::uint64_t> content;            // its words worth copying
    std::string text;
  };

  Rng run_rng(std::uint64_t run) const { return Rng((options_.seed * 0x9E3779B97F4A7C15ull + run) ^ 0x68656164ull); }

  // The first draws of a run's stream: whether it starts a story, then its length.
  std::uint64_t run_length(Rng& rng, bool& new_story) const {
    new_story = rng.chance(kShape.new_story);
    std::uint64_t length = 1;
    while (length < kShape.max_run && rng.chance(kShape.run_continue)) ++length;
    return length;
  }

  // Walks the run lengths (no text) from line 0, or on from the current run, to the run of `index`.
  void find_run(std::uint64_t index) {
    std::uint64_t run = 0, first = 0, story = 0;
    if (index >= run_.end && run_.end > 0) run = run_.number + 1, first = run_.end, story = run_.story;
    for (bool new_story;; ++run, first = run_.end) {
      Rng rng = run_rng(run);
      run_.end = first + run_length(rng, new_story);
      story += new_story && run > 0;
      if (index < run_.end) {
        run_.number = run, run_.first = first;
        if (story != run_.story || run_.keywords.empty()) make_story(story);
        make_headline(rng);
        return;
      }
    }
  }

  void make_story(std::uint64_t story) {
    Rng rng((options_.seed * 0x9E3779B97F4A7C15ull + story) ^ 0x73746F7279ull);  // "story"
    run_.story = story;
    run_.keywords.clear();
    for (std::uint32_t i = 0; i < kShape.keywords; ++i) run_.keywords.push_back(make_token(kName, rng.next()));
  }

  void make_headline(Rng& rng) {
    run_.words.clear();
    run_.content.clear();
    const std::uint32_t length = 8 + rng.below(6) + rng.below(6) + rng.below(5);
    for (std::uint32_t i = 0; i < length; ++i) {
      bool keyword;
      std::uint64_t word;
      for (int attempt = 0; attempt < 4; ++attempt) {  // headlines seldom repeat a word
        keyword = rng.chance(kShape.keyword);
        word = keyword ? run_.keywords[rng.below(kShape.keywords)] : make_token(kWord, headline_zipf_(rng));
        if (std::find(run_.words.begin(), run_.words.end(), word) == run_.words.end()) break;
      }
      run_.words.push_back(word);
      if (keyword || value_of(word) >= kShape.content_rank) run_.content.push_back(word);
      if (i + 1 < length) {
        if ((keyword || WordList::is_name(static_cast<std::uint32_t>(value_of(word)))) && rng.chance(0.06))
          run_.words.push_back(make_token(kMark, kPossessive));
        else if (i >= 2 && i <= 6 && rng.chance(0.04))
          run_.words.push_back(make_token(kMark, kColon));
        else if (rng.chance(0.03))
          run_.words.push_back(make_token(kMark, kComma));
      }
    }
    if (rng.chance(0.06)) run_.words.push_back(make_token(kMark, kQuestion));
    if (run_.content.empty()) run_.content.push_back(run_.words.front());
    run_.text.clear();
    append_tokens(run_.words, true, rng.chance(0.3), run_.text);
    run_.text += ' ';  // as in the real file: a space before the tab
  }

  std::uint32_t closeness(Rng& rng) const {
    double r = rng.uniform();
    for (std::uint32_t k = 0; k < 6; ++k)
      if ((r -= kShape.closeness[k]) < 0) return k;
    return 6;
  }

  // A close candidate (k >= 4): the headline, partly reworded, with some chatter around it.
  void paraphrase(std::uint32_t k, Rng& rng) {
    tgt_.clear();
    if (rng.chance(0.25)) {  // "Must read:"
      for (std::uint32_t i = 1 + rng.below(3); i > 0; --i) tgt_.push_back(tweet_word(rng));
      tgt_.push_back(make_token(kMark, kColon));
    }
    for (auto word : run_.words) {
      if (rng.chance(kShape.share[k])) {
        tgt_.push_back(word);
      } else if (kind_of(word) == kWord && rng.chance(0.5)) {
        const auto rank = static_cast<std::uint32_t>(value_of(word));
        tgt_.push_back(rng.chance(0.5) ? make_token(kWord, words_.partner(rank)) : tweet_word(rng));
      }
      if (rng.chance(0.05)) tgt_.push_back(tweet_word(rng));
    }
    for (std::uint32_t i = rng.chance(0.4) ? 1 + rng.below(3) : 0; i > 0; --i) tgt_.push_back(tweet_token(rng));
    if (rng.chance(0.3)) tgt_.push_back(make_token(kMark, kPeriod));
    if (tgt_.empty()) tgt_.push_back(run_.words.front());
  }

  // A loosely related candidate (k < 4): its own words, a few of the headline's among them.
  void loose(std::uint32_t k, Rng& rng) {
    tgt_.clear();
    std::uint32_t length = 3 + rng.below(10) + rng.below(10) + rng.below(10);  // tokens, mean ~18
    if (rng.chance(0.15)) length += rng.below(25);
    for (auto word : run_.content)
      if (rng.chance(kShape.share[k])) tgt_.push_back(word);
    const std::size_t shared = tgt_.size();
    while (tgt_.size() < length) tgt_.push_back(tweet_token(rng));
    for (std::size_t i = 0; i < shared; ++i)  // scatter the copied words
      std::swap(tgt_[i], tgt_[i + rng.below(static_cast<std::uint32_t>(tgt_.size() - i))]);
    if (kind_of(tgt_.front()) == kMark) tgt_.front() = tweet_word(rng);
    if (rng.chance(0.5)) tgt_.push_back(make_token(kMark, rng.chance(0.8) ? kPeriod : kQuestion + rng.below(2)));
  }

  std::uint64_t tweet_word(Rng& rng) const { return make_token(kWord, tweet_zipf_(rng)); }

  std::uint64_t tweet_token(Rng& rng) const {
    if (rng.chance(kShape.mark)) return make_token(kMark, rng.below(std::size(kMarks)));
    if (!rng.chance(kShape.special)) return tweet_word(rng);
    if (rng.chance(kShape.link)) return make_token(kLink, rng.next());
    const double r = rng.uniform();
    if (r < 0.4) return tweet_word(rng) | kHashtag;
    if (r < 0.75) return make_token(kHandle, rng.chance(kShape.new_handle) ? rng.next() : tweet_zipf_(rng));
    const double n = rng.uniform();
    return make_token(kNumber, n < 0.5 ? rng.below(20) : n < 0.8 ? rng.below(1000) : 1990 + rng.below(40));
  }

  void append_tokens(const std::vector<std::uint64_t>& tokens, bool capitalize_first, bool title_case,
                     std::string& out) const {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const std::uint64_t token = tokens[i];
      const Kind kind = kind_of(token);
      const std::uint64_t value = value_of(token);
      if (kind == kMark) {
        if (value >= kAttached && i > 0) out += ' ';
        out += kMarks[value];
        continue;
      }
      if (i > 0) out += ' ';
      if (token & kHashtag) out += '#';
      const std::size_t start = out.size();
      switch (kind) {
        case kWord:
          out += words_.word(static_cast<std::uint32_t>(value));
          if (((i == 0 && capitalize_first) || title_case || WordList::is_name(static_cast<std::uint32_t>(value))) &&
              out[start] >= 'a' && out[start] <= 'z')
            out[start] = static_cast<char>(out[start] - 'a' + 'A');
          break;
        case kName:
          append_name(value, out);
          break;
        case kNumber:
          append_number(value, out);
          break;
        case kHandle:
          out += '@';
          if (value < words_.size()) {  // a known account: two words run together
            const auto w = static_cast<std::uint32_t>(value);
            out += words_.word(w);
            out += words_.word((w * 7919u + 13u) % words_.size());
          } else {
            append_name(value, out);
            append_number(value % 100, out);
          }
          break;
        case kLink: {
          static constexpr std::string_view chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
          out += "https://t.co/";
          Rng letters(value);
          for (int c = 0; c < 10; ++c) out += chars[letters.below(static_cast<std::uint32_t>(chars.size()))];
          break;
        }
        case kMark:
          break;
      }
    }
  }

  // A capitalized made-up name from a hash: 3 or 4 syllables, with letters the vocabulary lacks (j, q, x).
  static void append_name(std::uint64_t hash, std::string& out) {
    static constexpr std::string_view onsets[] = {"b", "d", "f", "g", "h", "j", "k", "l", "m", "n",
                                                  "p", "r", "s", "t", "v", "w", "x", "z", "br", "ch",
                                                  "dr", "kr", "sh", "st", "th", "tr", "qu", "y"};
    static constexpr std::string_view nuclei[] = {"a", "e", "i", "o", "u", "ia", "ei", "ou"};
    static constexpr std::string_view codas[] = {"", "", "n", "r", "s", "l", "x", "k", "th", "nd", "rt", "j"};
    Rng rng(hash);
    const std::size_t start = out.size();
    for (int s = 3 + static_cast<int>(rng.below(2)); s > 0; --s) {
      out += onsets[rng.below(std::size(onsets))];
      out += nuclei[rng.below(std::size(nuclei))];
    }
    out += codas[rng.below(std::size(codas))];
    out[start] = static_cast<char>(out[start] - 'a' + 'A');
  }

  SynthOptions options_;
  WordList words_;
  ZipfSampler headline_zipf_, tweet_zipf_;
  LabelWriter labels_;
  double quality_mean_, quality_sd_;
  Run run_;
  std::vector<std::uint64_t> tgt_;
};

}  // namespace

std::unique_ptr<LineSource> twitter_profile(const SynthOptions& options) {
  return std::make_unique<TwitterWriter>(options);
}

}  // namespace tdcone::synth
