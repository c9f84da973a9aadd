#pragma once
// The whole result schema as JSON text: what scripts/tdcone_schema.json holds
// (regenerate it with `build/tdcone_schema_json > scripts/tdcone_schema.json`).
#include <string>

namespace tdcone::schema {

/// {"root": {"attributes": [...]}, "groups": [{"group", "writer", "checked",
/// "columns", "attributes"}...], "flags": [{"name", "value", "about"}...]};
/// a column or attribute is {"name", "type", "presence", "about"}. One entry a
/// line, in the order of results.hpp, ending with a newline.
std::string json();

}  // namespace tdcone::schema
