#include "tdcone/synth/style_labels.hpp"

#include <cmath>

namespace tdcone::synth {

namespace {

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

}  // namespace

void LabelWriter::append(std::uint64_t index, std::uint64_t topic, std::uint64_t story, double closeness,
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

}  // namespace tdcone::synth
