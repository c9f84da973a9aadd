// JSONL corpus lines through io::RecordParser, as the readers parse them.
#include <simdjson.h>

#include <cmath>

#include "fuzz_input.hpp"
#include "label_check.hpp"
#include "tdcone/io/record.hpp"

using namespace tdcone;

namespace {

io::FieldSpec spec(std::string src, std::string tgt, std::string score, std::string id,
                   std::vector<std::string> labels = {}) {
  io::FieldSpec s;
  s.format = io::Format::jsonl;
  s.src_field = std::move(src), s.tgt_field = std::move(tgt), s.score_field = std::move(score), s.id_field = std::move(id);
  s.label_fields = std::move(labels);
  return s;
}

bool valid_utf8(std::string_view s) { return simdjson::validate_utf8(s.data(), s.size()); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Every field kind (a bucketed and a categorical label too), and one field read as both sides.
  static io::RecordParser full(spec("src", "tgt", "score", "id", {"formality", "arousal"})),
      one_sided(spec("text", "text", "", ""));
  fuzz::LabelCheck labels;
  fuzz::for_each_line(fuzz::as_text(data, size), [&](std::string_view line) {
    for (io::RecordParser* parser : {&full, &one_sided}) {
      io::Record record;
      if (!parser->parse(line, record).empty()) continue;
      // A good line: the sides and id are UTF-8 (escapes decoded), the score finite.
      for (std::string_view field : {record.src, record.tgt, record.id}) FUZZ_CHECK(valid_utf8(field));
      FUZZ_CHECK(std::isfinite(record.score));
      labels.check(parser->spec().label_count(), record);
    }
  });
  return 0;
}
