#pragma once
// The corpora of `tdcone synth` as its tests read them: a scratch folder
// (SynthTest), lines and columns, token sets and statistics, the options of
// each profile. For synth_synth_test.cpp and the profiles' tests.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "tdcone/core/error.hpp"
#include "tdcone/synth/synth.hpp"
#include "tdcone/text/tokenizer.hpp"

namespace tdcone::synth {

namespace fs = std::filesystem;

class SynthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tdcone_synth_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const SynthOptions& options, const std::string& name) {
    const auto path = (dir_ / name).string();
    write_corpus(options, path);
    return read_file(path);
  }

  static std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  fs::path dir_;
};

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1)
    parts.push_back(text.substr(start, end - start));
  parts.push_back(text.substr(start));
  return parts;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  EXPECT_TRUE(text.empty() || text.back() == '\n');
  auto lines = split(text, '\n');
  lines.pop_back();  // after the final newline
  return lines;
}

inline std::size_t count_tokens(const std::string& side) {
  std::istringstream in(side);
  return std::distance(std::istream_iterator<std::string>(in), std::istream_iterator<std::string>());
}

// The paraphrase profile (the tests below check its shape); twitter() for the default profile.
inline SynthOptions small(std::uint64_t pairs, std::uint64_t seed = 1) {
  SynthOptions options;
  options.profile = Profile::paraphrase;
  options.pairs = pairs;
  options.seed = seed;
  options.vocabulary = 3000;
  return options;
}

inline std::string decompress_all(const std::string& compressed, std::size_t& frames) {
  std::string text;
  frames = 0;
  for (std::size_t offset = 0; offset < compressed.size(); ++frames) {
    const char* frame = compressed.data() + offset;
    const std::size_t frame_size = ZSTD_findFrameCompressedSize(frame, compressed.size() - offset);
    EXPECT_FALSE(ZSTD_isError(frame_size)) << ZSTD_getErrorName(frame_size);
    if (ZSTD_isError(frame_size)) break;
    const auto content_size = ZSTD_getFrameContentSize(frame, frame_size);
    EXPECT_NE(content_size, ZSTD_CONTENTSIZE_UNKNOWN);  // readers size their buffers from it
    EXPECT_NE(content_size, ZSTD_CONTENTSIZE_ERROR);
    std::string part(content_size, '\0');
    const std::size_t n = ZSTD_decompress(part.data(), part.size(), frame, frame_size);
    EXPECT_FALSE(ZSTD_isError(n));
    EXPECT_EQ(n, content_size);
    text += part;
    offset += frame_size;
  }
  return text;
}

inline SynthOptions twitter(std::uint64_t pairs, std::uint64_t seed = 1) {
  SynthOptions options;
  options.pairs = pairs;
  options.seed = seed;
  return options;
}

inline std::set<std::string> types_of(text::Tokenizer& tokenizer, const std::string& side) {
  std::vector<std::string_view> tokens;
  tokenizer.tokenize(side, tokens);
  return {tokens.begin(), tokens.end()};
}

inline double jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::size_t common = 0;
  for (const auto& word : a) common += b.count(word);
  return a.empty() && b.empty() ? 1.0 : double(common) / (a.size() + b.size() - common);
}

inline double correlation(const std::vector<double>& x, const std::vector<double>& y) {
  auto mean = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); };
  const double mx = mean(x), my = mean(y);
  double cov = 0, vx = 0, vy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    cov += (x[i] - mx) * (y[i] - my);
    vx += (x[i] - mx) * (x[i] - mx);
    vy += (y[i] - my) * (y[i] - my);
  }
  return cov / std::sqrt(vx * vy);
}

}  // namespace tdcone::synth
