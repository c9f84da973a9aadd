#include "tdcone/synth/synth.hpp"

#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "tdcone/core/error.hpp"

namespace tdcone::synth {

namespace {

// Uncompressed bytes per zstd frame; readers split .zst files at frame boundaries.
constexpr std::size_t kFrameBytes = std::size_t{1} << 20;

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// xoshiro256**: our own generator and samplers (no std:: distributions), so the
// corpus is the same bytes with any standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = std::rotl(state_[3], 45);
    return result;
  }

  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  bool chance(double p) { return uniform() < p; }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }

 private:
  std::array<std::uint64_t, 4> state_;
};

// Zipf(s) over ranks 0..n-1 by Vose's alias method: O(1) per draw.
class ZipfSampler {
 public:
  // P(k) ~ (k + 1 + offset)^-exponent: a positive offset flattens the head (Zipf-Mandelbrot).
  ZipfSampler(std::uint32_t n, double exponent, double offset = 0) : threshold_(n), alias_(n) {
    std::vector<double> scaled(n);
    double total = 0;
    for (std::uint32_t k = 0; k < n; ++k) total += scaled[k] = std::pow(k + 1.0 + offset, -exponent);
    for (auto& p : scaled) p *= n / total;
    std::vector<std::uint32_t> small, large;
    for (std::uint32_t k = 0; k < n; ++k) (scaled[k] < 1 ? small : large).push_back(k);
    while (!small.empty() && !large.empty()) {
      const auto s = small.back(), l = large.back();
      small.pop_back();
      large.pop_back();
      threshold_[s] = static_cast<std::uint64_t>(scaled[s] * 0x1.0p32);
      alias_[s] = l;
      scaled[l] += scaled[s] - 1;
      (scaled[l] < 1 ? small : large).push_back(l);
    }
    for (auto k : small) threshold_[k] = std::uint64_t{1} << 32, alias_[k] = k;  // rounding leftovers
    for (auto k : large) threshold_[k] = std::uint64_t{1} << 32, alias_[k] = k;
  }

  std::uint32_t operator()(Rng& rng) const {
    const std::uint64_t r = rng.next();
    const auto k = static_cast<std::uint32_t>(((r >> 32) * threshold_.size()) >> 32);
    return (r & 0xFFFFFFFFu) < threshold_[k] ? k : alias_[k];
  }

 private:
  std::vector<std::uint64_t> threshold_;  // P(keep k) scaled to 2^32
  std::vector<std::uint32_t> alias_;
};

// Distinct pronounceable pseudo-words; frequent (low rank) words are shorter.
class Vocabulary {
 public:
  Vocabulary(std::uint32_t size, std::uint64_t seed) {
    Rng rng(seed ^ 0x766F636162756C61ull);  // a stream of its own, apart from the lines
    std::unordered_set<std::string> seen;
    seen.reserve(size);
    offsets_.push_back(0);
    for (std::uint32_t rank = 0; rank < size; ++rank) {
      int syllables = 1 + (rank >= 100) + (rank >= 3000) + (rank >= 60000);
      const bool accented = rank >= 20 && rng.chance(0.006);  // é ü ö ä ß, for case folding
      for (int attempt = 1;; ++attempt) {
        const std::string word = make_word(syllables + (rank >= 20 && rng.chance(0.25)), accented, rng);
        if (seen.insert(word).second) {
          text_ += word;
          break;
        }
        if (attempt % 8 == 0) ++syllables;  // this length is crowded
      }
      offsets_.push_back(static_cast<std::uint32_t>(text_.size()));
    }
  }

  std::uint32_t size() const { return static_cast<std::uint32_t>(offsets_.size() - 1); }
  std::string_view word(std::uint32_t k) const {
    return std::string_view(text_).substr(offsets_[k], offsets_[k + 1] - offsets_[k]);
  }
  // One type in 50 is a "name", always capitalized.
  static bool is_name(std::uint32_t k) { return k % 50 == 17; }
  // The fixed "synonym" of word k: its neighbour in rank, so of similar frequency.
  std::uint32_t partner(std::uint32_t k) const { return (k ^ 1) < size() ? k ^ 1 : k; }

 private:
  // Consonant-vowel syllables, a consonant cluster only at the start, a coda only at the end.
  static std::string make_word(int syllables, bool accented, Rng& rng) {
    static constexpr std::string_view initials[] = {"b",  "c",  "d",  "f",  "g",  "h",  "k", "l",  "m",
                                                    "n",  "p",  "r",  "s",  "t",  "v",  "w", "st", "tr",
                                                    "br", "ch", "sh", "th", "pl", "gr", "",  "",   ""};
    static constexpr std::string_view consonants[] = {"b", "c", "d", "f", "g", "k", "l", "m",
                                                      "n", "p", "r", "s", "t", "v", "z"};
    static constexpr std::string_view vowels[] = {"a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "ou", "y"};
    static constexpr std::string_view accented_vowels[] = {"é", "ü", "ö", "ä"};
    static constexpr std::string_view codas[] = {"", "", "", "", "n", "r", "s", "l", "t", "m", "nd", "st"};
    std::string word;
    for (int s = 0; s < syllables; ++s) {
      word += s == 0 ? initials[rng.below(std::size(initials))] : consonants[rng.below(std::size(consonants))];
      const bool last = s + 1 == syllables;
      if (accented && last && rng.chance(0.8)) {
        word += accented_vowels[rng.below(std::size(accented_vowels))];
      } else {
        word += vowels[rng.below(std::size(vowels))];
      }
    }
    word += accented && rng.chance(0.2) ? "ß" : codas[rng.below(std::size(codas))];
    return word;
  }

  std::string text_;
  std::vector<std::uint32_t> offsets_;
};

// Writes plain text in large blocks, or zstd frames of kFrameBytes each.
class Output {
 public:
  Output(const std::string& path, bool zstd, int level) : path_(path), zstd_(zstd), level_(level) {
    if (path == "-") {
      file_ = stdout;
    } else {
      file_ = std::fopen(path.c_str(), "wb");
      if (!file_) throw IoError(cat("cannot open ", path, " for writing: ", std::strerror(errno)));
    }
    if (zstd_) {
      context_.reset(ZSTD_createCCtx());
      compressed_.resize(ZSTD_compressBound(kFrameBytes));
    }
  }
  ~Output() {
    if (file_ && file_ != stdout) std::fclose(file_);
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  /// Takes the complete frames (zstd) or everything (plain) out of `text`.
  void consume(std::string& text) {
    if (!zstd_) {
      write(text.data(), text.size());
      text.clear();
      return;
    }
    std::size_t done = 0;
    for (; text.size() - done >= kFrameBytes; done += kFrameBytes) compress_frame(text.data() + done, kFrameBytes);
    text.erase(0, done);
  }

  void finish(std::string& text) {
    consume(text);
    if (zstd_ && (!text.empty() || frames_ == 0))
      compress_frame(text.data(), text.size());  // a valid file even when empty
    text.clear();
    const bool failed = file_ == stdout ? std::fflush(file_) != 0 || std::ferror(file_) : std::fclose(file_) != 0;
    if (file_ != stdout) file_ = nullptr;
    if (failed) throw IoError(cat("cannot write ", path_, ": ", std::strerror(errno)));
  }

 private:
  struct ContextDeleter {
    void operator()(ZSTD_CCtx* context) const { ZSTD_freeCCtx(context); }
  };

  // One frame with its content size recorded (ZSTD_compress semantics, reused context).
  void compress_frame(const char* data, std::size_t size) {
    const std::size_t n = ZSTD_compressCCtx(context_.get(), compressed_.data(), compressed_.size(), data, size, level_);
    if (ZSTD_isError(n)) throw IoError(cat("cannot compress ", path_, ": ", ZSTD_getErrorName(n)));
    write(compressed_.data(), n);
    ++frames_;
  }

  void write(const char* data, std::size_t size) {
    if (size > 0 && std::fwrite(data, 1, size, file_) != size)
      throw IoError(cat("cannot write ", path_, ": ", std::strerror(errno)));
  }

  std::string path_;
  bool zstd_;
  int level_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<ZSTD_CCtx, ContextDeleter> context_;
  std::vector<char> compressed_;
  std::uint64_t frames_ = 0;
};

enum class Junk { none, empty_tgt, empty_src, long_tgt, identical, no_tab, bad_score };

Junk pick_junk(double fraction, Rng& rng) {
  if (!rng.chance(fraction)) return Junk::none;
  const double r = rng.uniform();  // the rare kinds (bad lines for readers): 1/10 of the junk
  if (r < 0.225) return Junk::empty_tgt;
  if (r < 0.45) return Junk::empty_src;
  if (r < 0.675) return Junk::long_tgt;
  if (r < 0.9) return Junk::identical;
  if (r < 0.95) return Junk::no_tab;
  return Junk::bad_score;
}

void append_number(std::uint64_t value, std::string& out) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

// A classifier-like probability: the quality plus noise (sd ~0.1), clipped to [0, 1], 4 decimals.
void append_score(double quality, Rng& rng, std::string& out) {
  const double noise = (rng.uniform() + rng.uniform() + rng.uniform() + rng.uniform() - 2) * 0.18;
  const double score = std::clamp(quality + noise, 0.0, 1.0);
  const auto ten_thousandths = static_cast<std::uint32_t>(score * 10000 + 0.5);
  char digits[6] = {static_cast<char>('0' + ten_thousandths / 10000), '.'};
  for (int i = 5, rest = ten_thousandths % 10000; i >= 2; --i, rest /= 10)
    digits[i] = static_cast<char>('0' + rest % 10);
  out.append(digits, 6);
}

// Columns 3 and 4: "\t" score "\tsyn-SEED-INDEX" (or "\tn/a" for the bad-score junk).
void append_score_and_id(Junk junk, double quality, std::uint64_t seed, std::uint64_t index, Rng& rng,
                         std::string& out) {
  out += '\t';
  if (junk == Junk::bad_score) {
    out += "n/a";
  } else {
    append_score(quality, rng, out);
  }
  out += "\tsyn-";
  append_number(seed, out);
  out += '-';
  append_number(index, out);
}

// Roughly standard normal: a sum of 4 uniforms (Irwin-Hall) scaled to sd 1, from our own generator.
double normal(Rng& rng) { return (rng.uniform() + rng.uniform() + rng.uniform() + rng.uniform() - 2) * std::sqrt(3.0); }

// Style labels (--labels): two latent normals, formality and arousal, thresholded at 0
// (formality = logistic(latent) >= 0.5 is formal). Their means and correlation give the skewed
// joint distribution of Table 1 in seeds/multi-style-balancing.txt: formal|aroused : formal|calm
// : informal|aroused : informal|calm = 8685 : 2792 : 1275 : 828 (P(formal) 0.845, P(aroused)
// 0.733, P(aroused | formal) 0.76 > P(aroused | informal) 0.61). Part of each latent is the
// line's topic and, for formality, how close tgt is to src, so that the combinations are
// different kinds of pairs (and differ in TD-CONE), not random slices of the corpus.
struct LabelShape {
  double formal = 1.016;      // mean of the formality latent (sd 1): Phi^-1(0.845)
  double aroused = 0.623;     // mean of the arousal latent (sd 1): Phi^-1(0.733)
  double correlation = 0.235;  // of the two latents
  double topic = 0.6;         // sd of the formality latent from the topic (a headline is formal or not) ...
  double closeness = 0.4;     // ... from how close tgt is to src (the rest is the line's own)
  double story = 0.5;         // sd of the arousal latent's own part from the topic (a story is exciting or not)
  double spread = 2;          // formality = logistic(spread * latent)
};
constexpr LabelShape kLabels;

class LabelWriter {
 public:
  explicit LabelWriter(const SynthOptions& options) : seed_(options.seed), bad_(options.junk_fraction / 2) {}

  /// Appends "\t" formality "\t" arousal for line `index` about `topic` (formality) and `story`
  /// (arousal); `closeness` is standardized (mean 0, sd 1 over the corpus). Its own streams: the
  /// corpus's other columns keep their bytes.
  void append(std::uint64_t index, std::uint64_t topic, std::uint64_t story, double closeness,
              std::string& out) const {
    Rng line(stream(index, 0x6C696E65ull)), topic_rng(stream(topic, 0x746F706963ull)),
        story_rng(stream(story, 0x73746F7279ull));
    const auto rest = [](double a, double b = 0) { return std::sqrt(1 - a * a - b * b); };  // sd left for sd 1
    const double formality = kLabels.topic * normal(topic_rng) + kLabels.closeness * closeness +
                             rest(kLabels.topic, kLabels.closeness) * normal(line);
    const double arousal_own = kLabels.story * normal(story_rng) + rest(kLabels.story) * normal(line);
    const double arousal =
        kLabels.aroused + kLabels.correlation * formality + rest(kLabels.correlation) * arousal_own;
    const bool bad = line.chance(bad_), unparsable = line.chance(0.5);  // a bad label: one of two kinds

    out += '\t';
    if (bad && unparsable) {
      out += "n/a";
    } else {
      const double value = 1 / (1 + std::exp(-kLabels.spread * (kLabels.formal + formality)));
      const auto thousandths = static_cast<std::uint32_t>(value * 1000 + 0.5);
      char digits[5] = {static_cast<char>('0' + thousandths / 1000), '.'};
      for (int i = 4, left = thousandths % 1000; i >= 2; --i, left /= 10)
        digits[i] = static_cast<char>('0' + left % 10);
      out.append(digits, 5);
    }
    if (bad && !unparsable) return;  // no column 6
    out += arousal >= 0 ? "\taroused" : "\tcalm";
  }

 private:
  Rng stream(std::uint64_t key, std::uint64_t salt) const {
    return Rng((seed_ * 0xA0761D6478BD642Full + key) ^ (salt << 8));
  }

  std::uint64_t seed_;
  double bad_;
};

// The paraphrase profile: each line from its own random stream seeded by (seed, index).
class ParaphraseWriter {
 public:
  explicit ParaphraseWriter(const SynthOptions& options)
      : options_(options),
        vocabulary_(options.vocabulary, options.seed),
        zipf_(options.vocabulary, options.zipf_exponent),
        labels_(options) {}

  void append_line(std::uint64_t index, std::string& out) {
    Rng rng(options_.seed * 0xD1342543DE82EF95ull + index);
    const Junk junk = pick_junk(options_.junk_fraction, rng);
    const double quality = std::max(rng.uniform(), rng.uniform());  // most pairs are decent paraphrases

    src_.clear();
    const std::uint32_t length = sentence_length(rng);
    for (std::uint32_t i = 0; i < length; ++i) src_.push_back(zipf_(rng));
    const std::uint32_t topic = *std::max_element(src_.begin(), src_.end());  // its rarest word
    rewrite(quality, rng);

    if (junk == Junk::long_tgt) {
      tgt_.clear();
      const std::uint32_t long_length = 200 + rng.below(201);
      for (std::uint32_t i = 0; i < long_length; ++i) tgt_.push_back(zipf_(rng));
    }
    if (junk == Junk::empty_src) src_.clear();
    if (junk == Junk::empty_tgt) tgt_.clear();

    const std::size_t src_start = out.size();
    append_sentence(src_, rng, out);
    const std::size_t src_end = out.size();
    if (junk == Junk::no_tab) {  // a bad line for readers: one column only
      out += '\n';
      return;
    }
    out += '\t';
    if (junk == Junk::identical) {
      out.append(out, src_start, src_end - src_start);  // std::string handles appending from itself
    } else {
      append_sentence(tgt_, rng, out);
    }
    append_score_and_id(junk, quality, options_.seed, index, rng, out);
    // quality = max of two uniforms: mean 2/3, sd sqrt(1/18)
    if (options_.labels) labels_.append(index, topic, topic, (quality - 2.0 / 3) * std::sqrt(18.0), out);
    out += '\n';
  }

 private:
  // 4..30 tokens, mean ~13.8: a bell around 13 with a longer right tail.
  static std::uint32_t sentence_length(Rng& rng) {
    std::uint32_t length = 4 + rng.below(7) + rng.below(7) + rng.below(7);
    if (rng.chance(0.2)) length += rng.below(9);
    return length;
  }

  // tgt_ = a paraphrase of src_: the lower the quality, the more is rewritten.
  void rewrite(double quality, Rng& rng) {
    tgt_.clear();
    const double change = (1 - quality) * 0.7, insert = (1 - quality) * 0.12;
    for (auto word : src_) {
      if (rng.chance(change)) {
        const double r = rng.uniform();
        if (r < 0.45) {
          tgt_.push_back(vocabulary_.partner(word));
        } else if (r >= 0.75) {
          tgt_.push_back(zipf_(rng));
        }  // else dropped
      } else {
        tgt_.push_back(word);
      }
      if (rng.chance(insert)) tgt_.push_back(zipf_(rng));
    }
    if (tgt_.size() >= 4 && rng.chance((1 - quality) * 0.6)) {  // reorder a span
      const auto start = rng.below(static_cast<std::uint32_t>(tgt_.size() - 1));
      const auto span = 2 + rng.below(std::min<std::uint32_t>(4, static_cast<std::uint32_t>(tgt_.size()) - start - 1));
      std::reverse(tgt_.begin() + start, tgt_.begin() + start + span);
    }
    if (tgt_.empty()) tgt_.push_back(src_.front());  // an empty side only as junk
  }

  // Words with surface variation for the tokenizer: capitals, attached , . ? ! and “quotes”.
  void append_sentence(const std::vector<std::uint32_t>& words, Rng& rng, std::string& out) const {
    if (words.empty()) return;
    const bool quoted = rng.chance(0.02);
    if (quoted) out += "“";
    const bool capitalize_first = rng.chance(0.6);
    for (std::size_t i = 0; i < words.size(); ++i) {
      if (i > 0) out += ' ';
      const std::size_t start = out.size();
      out += vocabulary_.word(words[i]);
      if ((i == 0 && capitalize_first) || Vocabulary::is_name(words[i]) || rng.chance(0.01))
        if (out[start] >= 'a' && out[start] <= 'z') out[start] = static_cast<char>(out[start] - 'a' + 'A');
      if (i + 1 < words.size() && rng.chance(0.05)) out += ',';
    }
    const double end = rng.uniform();
    if (end < 0.6) {
      out += '.';
    } else if (end < 0.65) {
      out += '?';
    } else if (end < 0.67) {
      out += '!';
    }
    if (quoted) out += "”";
  }

  SynthOptions options_;
  Vocabulary vocabulary_;
  ZipfSampler zipf_;
  LabelWriter labels_;
  std::vector<std::uint32_t> src_, tgt_;
};

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

class TwitterWriter {
 public:
  explicit TwitterWriter(const SynthOptions& options)
      : options_(options),
        vocabulary_(options.vocabulary, options.seed),
        headline_zipf_(options.vocabulary, kShape.headline_exponent, kShape.headline_offset),
        tweet_zipf_(options.vocabulary, kShape.tweet_exponent, kShape.tweet_offset),
        labels_(options) {
    // Mean and sd of quality = (k + U) / 7: the labels take it standardized.
    double mean_k = 0, mean_k2 = 0;
    for (std::uint32_t k = 0; k < 7; ++k) mean_k += k * kShape.closeness[k], mean_k2 += k * k * kShape.closeness[k];
    quality_mean_ = (mean_k + 0.5) / 7;
    quality_sd_ = std::sqrt(mean_k2 - mean_k * mean_k + 1.0 / 12) / 7;
  }

  void append_line(std::uint64_t index, std::string& out) {
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
        if ((keyword || Vocabulary::is_name(static_cast<std::uint32_t>(value_of(word)))) && rng.chance(0.06))
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
        tgt_.push_back(rng.chance(0.5) ? make_token(kWord, vocabulary_.partner(rank)) : tweet_word(rng));
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
          out += vocabulary_.word(static_cast<std::uint32_t>(value));
          if (((i == 0 && capitalize_first) || title_case || Vocabulary::is_name(static_cast<std::uint32_t>(value))) &&
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
          if (value < vocabulary_.size()) {  // a known account: two words run together
            const auto w = static_cast<std::uint32_t>(value);
            out += vocabulary_.word(w);
            out += vocabulary_.word((w * 7919u + 13u) % vocabulary_.size());
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
  Vocabulary vocabulary_;
  ZipfSampler headline_zipf_, tweet_zipf_;
  LabelWriter labels_;
  double quality_mean_, quality_sd_;
  Run run_;
  std::vector<std::uint64_t> tgt_;
};

}  // namespace

Profile profile_from_name(const std::string& name) {
  if (name == "twitter") return Profile::twitter;
  if (name == "paraphrase") return Profile::paraphrase;
  throw UsageError(cat("synth: unknown profile '", name, "' (twitter or paraphrase)"));
}

void write_corpus(const SynthOptions& options, const std::string& path) {
  if (options.vocabulary == 0) throw UsageError("synth: the vocabulary needs at least one word");
  auto write = [&](auto& pairs) {
    Output output(path, options.zstd, options.zstd_level);
    std::string buffer;
    buffer.reserve(2 * kFrameBytes);
    for (std::uint64_t index = options.first_pair; index < options.first_pair + options.pairs; ++index) {
      pairs.append_line(index, buffer);
      if (buffer.size() >= kFrameBytes) output.consume(buffer);
    }
    output.finish(buffer);
  };
  if (options.profile == Profile::paraphrase) {
    ParaphraseWriter pairs(options);
    write(pairs);
  } else {
    TwitterWriter pairs(options);
    write(pairs);
  }
}

}  // namespace tdcone::synth
