// JSONL corpus lines through io::RecordParser, as the readers parse them.
#include <simdjson.h>

#include <cmath>

#include "fuzz_input.hpp"
#include "tdcone/io/record.hpp"

using namespace tdcone;

namespace {

io::FieldSpec spec(std::string src, std::string tgt, std::string score, std::string id) {
  io::FieldSpec s;
  s.format = io::Format::jsonl;
  s.src_field = std::move(src), s.tgt_field = std::move(tgt), s.score_field = std::move(score), s.id_field = std::move(id);
  return s;
}

bool valid_utf8(std::string_view s) { return simdjson::validate_utf8(s.data(), s.size()); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Every field kind, and one field read as both sides (selection's one-sided lines).
  static io::RecordParser full(spec("src", "tgt", "score", "id")), one_sided(spec("text", "text", "", ""));
  fuzz::for_each_line(fuzz::as_text(data, size), [](std::string_view line) {
    for (io::RecordParser* parser : {&full, &one_sided}) {
      io::Record record;
      if (!parser->parse(line, record).empty()) continue;
      // A good line: the sides and id are UTF-8 (escapes decoded), the score finite.
      for (std::string_view field : {record.src, record.tgt, record.id}) FUZZ_CHECK(valid_utf8(field));
      FUZZ_CHECK(std::isfinite(record.score));
    }
  });
  return 0;
}
