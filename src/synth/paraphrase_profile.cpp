#include "tdcone/synth/profiles.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "tdcone/synth/line_columns.hpp"
#include "tdcone/synth/style_labels.hpp"
#include "tdcone/synth/word_list.hpp"
#include "tdcone/synth/zipf_sampler.hpp"

namespace tdcone::synth {

namespace {

// The paraphrase profile: each line from its own random stream seeded by (seed, index).
class ParaphraseWriter final : public LineSource {
 public:
  explicit ParaphraseWriter(const SynthOptions& options)
      : options_(options),
        words_(options.vocabulary, options.seed),
        zipf_(options.vocabulary, options.zipf_exponent),
        labels_(options) {}

  void append_line(std::uint64_t index, std::string& out) override {
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
          tgt_.push_back(words_.partner(word));
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
      out += words_.word(words[i]);
      if ((i == 0 && capitalize_first) || WordList::is_name(words[i]) || rng.chance(0.01))
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
  WordList words_;
  ZipfSampler zipf_;
  LabelWriter labels_;
  std::vector<std::uint32_t> src_, tgt_;
};

}  // namespace

std::unique_ptr<LineSource> paraphrase_profile(const SynthOptions& options) {
  return std::make_unique<ParaphraseWriter>(options);
}

}  // namespace tdcone::synth
