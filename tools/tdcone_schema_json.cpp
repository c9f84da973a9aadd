// Prints the result schema as JSON (src/schema): the source of the checked-in
// scripts/tdcone_schema.json, which the Python scripts read. Regenerate it with
//   cmake --build build --target tdcone_schema_json && build/tdcone_schema_json > scripts/tdcone_schema.json
// (tests/unit/schema_test.cpp fails while the two differ).
#include <cstdio>

#include "tdcone/schema/schema_json.hpp"

int main() {
  const std::string text = tdcone::schema::json();
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0 ? 0 : 1;
}
