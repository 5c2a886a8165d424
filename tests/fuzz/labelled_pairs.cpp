// `calibrate --pairs` and `evaluate --pairs`' labelled pairs (claimrag's layout or LLM-AggreFact's).
#include "claimrag/verification/labelled_pairs.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("labelled.jsonl", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::verification::read_labelled_pairs(file); });
  return 0;
}
