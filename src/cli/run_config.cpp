#include "tdcone/cli/run_config.hpp"

#include <toml++/toml.h>

#include <cstdint>
#include <type_traits>

#include "tdcone/cli/common_options.hpp"
#include "tdcone/core/error.hpp"

namespace tdcone::cli {

exporting::RunSettings read_run_settings(const std::string& text, const std::string& result) {
  toml::table config;
  try {
    config = toml::parse(text);
  } catch (const std::exception& e) {
    throw IoError(cat(result, ": the run's configuration (attribute 'config') is not TOML: ", e.what()));
  }
  exporting::RunSettings settings;
  config::CorpusConfig& c = settings.corpus;
  auto integer = [&](const char* key, auto& value) {
    if (const auto v = config[key].value<std::int64_t>()) value = static_cast<std::remove_reference_t<decltype(value)>>(*v);
  };
  c.format = from_name<io::Format>(config["format"].value_or(std::string("tsv")),
                                   {{"tsv", io::Format::tsv}, {"jsonl", io::Format::jsonl}});
  integer("src-col", c.src_col);
  integer("tgt-col", c.tgt_col);
  integer("score-col", c.score_col);
  integer("id-col", c.id_col);
  c.src_field = config["src-field"].value_or(c.src_field);
  c.tgt_field = config["tgt-field"].value_or(c.tgt_field);
  c.score_field = config["score-field"].value_or(c.score_field);
  c.id_field = config["id-field"].value_or(c.id_field);
  c.reverse = config["reverse"].value_or(c.reverse);
  integer("max-line-bytes", c.max_line_bytes);
  settings.side = side_from_name(config["side"].value_or(std::string("src")));
  if (const auto* files = config["src-file"].as_array()) c.src_files.assign(files->size(), "");  // only "is it parallel"
  return settings;
}

}  // namespace tdcone::cli
