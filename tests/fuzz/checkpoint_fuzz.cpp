// `select --resume` checkpoints through select::read_checkpoint: a damaged
// file must be a UsageError ("corrupt checkpoint ..."), nothing else.
#include "fuzz_input.hpp"
#include "tdcone/error.hpp"
#include "tdcone/select/checkpoint.hpp"

using namespace tdcone;

// The seeds in corpus/checkpoint were written by select::write_checkpoint with
// this fingerprint (one state empty, one with two lines, one with another
// fingerprint): write them again when the format changes.
constexpr std::uint64_t kFingerprint = 42;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    select::read_checkpoint(fuzz::as_file(data, size), kFingerprint);
  } catch (const UsageError&) {
  }
  return 0;
}
