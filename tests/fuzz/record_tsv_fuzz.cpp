// TSV corpus lines through io::RecordParser, as the readers parse them.
#include <simdjson.h>

#include <cmath>

#include "fuzz_input.hpp"
#include "label_check.hpp"
#include "tdcone/io/record.hpp"

using namespace tdcone;

namespace {

io::FieldSpec spec(int src, int tgt, int score, int id, std::vector<int> labels = {}) {
  io::FieldSpec s;
  s.src_col = src, s.tgt_col = tgt, s.score_col = score, s.id_col = id, s.label_cols = std::move(labels);
  return s;
}

bool valid_utf8(std::string_view s) { return simdjson::validate_utf8(s.data(), s.size()); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Every column kind (a bucketed and a categorical label too), and the sides swapped with nothing else.
  static io::RecordParser full(spec(1, 2, 3, 4, {5, 6})), swapped(spec(2, 1, 0, 0));
  fuzz::LabelCheck labels;
  fuzz::for_each_line(fuzz::as_text(data, size), [&](std::string_view line) {
    for (io::RecordParser* parser : {&full, &swapped}) {
      io::Record record;
      if (!parser->parse(line, record).empty()) continue;
      // A good line: the sides and id are UTF-8 slices of the line, the score finite.
      for (std::string_view field : {record.src, record.tgt, record.id}) {
        FUZZ_CHECK(valid_utf8(field));
        FUZZ_CHECK(field.empty() || (field.data() >= line.data() && field.data() + field.size() <= line.data() + line.size()));
      }
      FUZZ_CHECK(std::isfinite(record.score));
      labels.check(parser->spec().label_count(), record);
    }
  });
  return 0;
}
