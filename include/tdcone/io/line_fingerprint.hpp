#pragma once
// A content fingerprint of an input file that ranks can compute piece by piece
// while they read their shares, and that `tdcone export` recomputes when it
// reads the file again to join the text:
//
//   F = Σ_i XXH3_64(line_i) · B^i  (mod 2^64)   over the file's lines i = 0, 1, ...
//
// line_i as io::LineReader gives it (without its line end; a leading BOM
// dropped); a line longer than the run's --max-line-bytes counts as a fixed
// marker (the reader does not keep its bytes). B is odd, so B^i is invertible
// mod 2^64 and a change of any one line always changes F (up to an XXH3
// collision); two lines swapped change it too, and a line added or removed
// shifts every later line's power. A piece of the file starting at line b
// contributes B^b · (its own sum), which makes F the same for any number of
// ranks. About one XXH3 and one multiplication per line: cheap next to
// tokenizing it.
#include <cstdint>
#include <string_view>

namespace tdcone::io {

class LineFingerprint {
 public:
  /// Adds the next line (`too_long`: over --max-line-bytes, bytes not kept).
  void add(std::string_view line, bool too_long);
  std::uint64_t sum() const { return sum_; }
  std::uint64_t lines() const { return lines_; }

  /// The contribution of a piece whose own sum is `sum` and that starts at line `first_line` of its file.
  static std::uint64_t shifted(std::uint64_t sum, std::uint64_t first_line);

 private:
  std::uint64_t sum_ = 0, power_ = 1, lines_ = 0;
};

}  // namespace tdcone::io
