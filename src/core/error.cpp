#include "tdcone/core/error.hpp"

namespace tdcone {

namespace {
std::function<std::string()>& out_of_memory_explainer() {
  static std::function<std::string()> explain;
  return explain;
}
}  // namespace

std::string out_of_memory_message() {
  const auto& explain = out_of_memory_explainer();
  return explain ? explain() : "out of memory";
}

void set_out_of_memory_message(std::function<std::string()> explain) { out_of_memory_explainer() = std::move(explain); }

}  // namespace tdcone
