#include "tdcone/results/column_text.hpp"

#include "tdcone/core/number_text.hpp"

namespace tdcone::results {

namespace {

template <class T, class Render>
std::vector<std::string> rendered(const std::vector<T>& values, Render render) {
  std::vector<std::string> rows;
  rows.reserve(values.size());
  for (const T& value : values) rows.push_back(render(value));
  return rows;
}

}  // namespace

std::vector<std::string> column_text(const hdf5::Column& column) {
  switch (column.kind) {
    case hdf5::Column::Kind::unsigned_integer:
      return rendered(column.unsigned_values, [](std::uint64_t v) { return std::to_string(v); });
    case hdf5::Column::Kind::signed_integer:
      return rendered(column.signed_values, [](std::int64_t v) { return std::to_string(v); });
    case hdf5::Column::Kind::real:
      return rendered(column.real_values, shortest_text);
    case hdf5::Column::Kind::text:
      return column.text_values;
  }
  return {};
}

}  // namespace tdcone::results
