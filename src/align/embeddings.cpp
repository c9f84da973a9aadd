#include "tdcone/align/embeddings.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "tdcone/core/error.hpp"
#include "tdcone/io/input_files.hpp"
#include "tdcone/io/line_reader.hpp"

namespace tdcone::align {

namespace {

// The whole field as a finite float (from_chars also takes "nan" and "inf").
bool parse_float(std::string_view text, float& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

bool parse_count(std::string_view text, std::size_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

// Splits on ASCII spaces/tabs (the formats' separators), skipping empty fields.
template <class F>
void for_each_field(std::string_view line, F&& f) {
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) f(line.substr(i, j - i));
    i = j;
  }
}

// A byte no text line holds (NUL), or bytes that are not UTF-8: a binary
// word2vec record ("word " and raw floats) read as a line.
bool holds_binary_bytes(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size()) {
    const auto byte = static_cast<unsigned char>(line[i]);
    if (byte == 0) return true;
    const std::size_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > line.size()) return true;
    for (std::size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(line[i + k]) & 0xC0) != 0x80) return true;
    i += length;
  }
  return false;
}

std::string binary_file_message(const std::string& path, std::uint64_t line_no) {
  return cat(path, ":", line_no, ": not a line of text (it holds a NUL byte or bytes that are not UTF-8): a binary "
             "word2vec file? ", Option::embeddings, " reads the text format only, 'word v1 ... vd' a line; convert it, "
             "e.g. with gensim: KeyedVectors.load_word2vec_format('", path, "', binary=True).save_word2vec_format('", path,
             ".txt', binary=False)");
}

}  // namespace

EmbeddingTable EmbeddingTable::load(const std::string& path, const text::Vocabulary& vocabulary) {
  const auto files = io::resolve_inputs({path});
  for (const auto& file : files)  // a pipe or FIFO can be read only once
    if (file.stream) throw UsageError(cat("embedding file must be a regular file (every rank reads it): ", file.path));
  EmbeddingTable table;
  table.row_of_.assign(vocabulary.size(), -1);
  std::vector<std::string_view> fields;
  std::vector<float> values;
  std::uint64_t line_no = 0;
  for (const auto& segment : io::plan_share(files, 0, 1)) {
    io::LineReader reader(files[segment.file], segment, std::uint64_t{1} << 26);
    io::Line line;
    // A line that cannot be a vector: said to be binary when it is not text.
    const auto refuse = [&](const std::string& why) {
      throw UsageError(holds_binary_bytes(line.text) ? binary_file_message(path, line_no) : cat(path, ":", line_no, ": ", why));
    };
    while (reader.next(line)) {
      ++line_no;
      if (line.too_long) refuse("embedding line too long");
      // The first vector of a binary file may happen to split into the
      // right number of fields, and its word be one the text lacks.
      if (line_no <= 2 && line.text.find('\0') != std::string_view::npos) refuse("");
      fields.clear();
      for_each_field(line.text, [&](std::string_view f) { fields.push_back(f); });
      if (fields.empty()) continue;
      std::size_t count, header_dimension;
      if (line_no == 1 && fields.size() == 2 && parse_count(fields[0], count) && parse_count(fields[1], header_dimension)) {
        table.dimension_ = header_dimension;  // word2vec "count dim" header: the vectors must agree
        continue;
      }
      if (fields.size() < 2) refuse("expected a word and its vector");
      const std::size_t dim = fields.size() - 1;
      if (table.dimension_ == 0) table.dimension_ = dim;
      if (dim != table.dimension_) refuse(cat("vector has ", dim, " values, expected ", table.dimension_));
      ++table.vectors_in_file_;
      const text::WordId word = vocabulary.find(fields[0]);
      if (word == text::kNullWord || table.row_of_[word] >= 0) continue;
      values.resize(dim);
      for (std::size_t k = 0; k < dim; ++k)
        if (!parse_float(fields[k + 1], values[k])) refuse(cat("not a finite number: '", fields[k + 1], "'"));
      table.set(word, values);
    }
  }
  if (table.dimension_ == 0) throw UsageError(cat("embedding file has no vectors: ", path));
  return table;
}

void EmbeddingTable::set(text::WordId word, std::vector<float> values) {
  if (dimension_ == 0) dimension_ = values.size();
  if (values.size() != dimension_) throw UsageError("embedding dimension mismatch");
  if (row_of_.size() <= word) row_of_.resize(word + 1, -1);
  if (row_of_[word] < 0) {
    row_of_[word] = static_cast<std::int64_t>(norms_.size());
    values_.resize(values_.size() + dimension_);
    norms_.push_back(0.0);
    ++found_;
  }
  std::copy(values.begin(), values.end(), values_.begin() + row_of_[word] * dimension_);
  double norm = 0.0;
  for (float x : values) norm += double(x) * x;
  norms_[row_of_[word]] = std::sqrt(norm);
}

const float* EmbeddingTable::vector(text::WordId word) const {
  if (word >= row_of_.size() || row_of_[word] < 0) return nullptr;
  return values_.data() + row_of_[word] * dimension_;
}

double EmbeddingTable::similarity(text::WordId a, text::WordId b) const {
  const float* u = vector(a);
  const float* v = vector(b);
  double dot = 0.0;
  for (std::size_t k = 0; k < dimension_; ++k) dot += double(u[k]) * v[k];
  const double norms = norms_[row_of_[a]] * norms_[row_of_[b]];
  return std::max(norms > 0.0 ? dot / norms : 0.0, 1e-6);
}

}  // namespace tdcone::align
