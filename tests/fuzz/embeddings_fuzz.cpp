// Embedding files (GloVe / word2vec text, plain or zstd) through
// align::EmbeddingTable::load, for a small vocabulary.
#include "fuzz_input.hpp"
#include "tdcone/align/embeddings.hpp"
#include "tdcone/core/error.hpp"

using namespace tdcone;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto vocabulary = [] {
    text::Vocabulary v;
    for (const char* word : {"the", "a", "cat", "dog", "<unk>", "é", "1"}) v.intern(word);
    return v;
  }();
  align::EmbeddingTable table;
  try {
    table = align::EmbeddingTable::load(fuzz::as_file(data, size), vocabulary);
  } catch (const UsageError&) {
    return 0;  // a malformed file: the documented errors
  } catch (const IoError&) {
    return 0;
  }
  // Loaded: the similarity of two words with vectors is max(cos, 1e-6), a number in [1e-6, 1].
  FUZZ_CHECK(table.dimension() > 0);
  for (text::WordId a = 1; a < vocabulary.size(); ++a)
    for (text::WordId b = 1; b < vocabulary.size(); ++b)
      if (table.vector(a) && table.vector(b)) {
        const double s = table.similarity(a, b);
        FUZZ_CHECK(s >= 1e-6 && s <= 1 + 1e-9);
      }
  return 0;
}
