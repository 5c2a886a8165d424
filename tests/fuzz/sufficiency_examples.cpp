// `sufficiency --examples`: JSON Lines of claims, passages and labels.
#include "claimrag/sufficiency/example.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("examples.jsonl", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::sufficiency::read_examples(file); });
  return 0;
}
