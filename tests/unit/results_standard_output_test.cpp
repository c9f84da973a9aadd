// Write errors where tables and summaries are written (results/standard_output.hpp).
#include "tdcone/results/standard_output.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "tdcone/core/error.hpp"

namespace tdcone::results {
namespace {

TEST(StandardOutput, AFailedWriteToAFileIsAnErrorNamingIt) {
  std::ostringstream out;
  out << "pair_id\n";
  EXPECT_NO_THROW(check_written(out, "rows.tsv"));
  out.setstate(std::ios::badbit);  // as a write(2) that failed leaves an ofstream
  try {
    check_written(out, "rows.tsv");
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot write rows.tsv", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace tdcone::results
