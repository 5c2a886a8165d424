// `verify --pairs` and `predict --pairs`' JSON Lines of (claim, evidence) pairs.
#include "claimrag/verification/verification_pairs.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("pairs.jsonl", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::verification::read_verification_pairs(file); });
  return 0;
}
