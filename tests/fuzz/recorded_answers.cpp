// `interrogate --responder recorded:FILE`: JSON Lines of recorded answers.
#include "claimrag/interrogation/recorded_responder.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("answers.jsonl", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::interrogation::RecordedResponder(file).unused(); });
  return 0;
}
