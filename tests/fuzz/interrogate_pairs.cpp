// `interrogate --pairs`: JSON Lines of claims with their evidence, negated as they are read.
#include "claimrag/interrogation/pair.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("pairs.jsonl", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::interrogation::load_pairs(file, nullptr); });
  return 0;
}
