// `ground --answers` (and `ground --generate`'s questions): JSON Lines with inline context passages.
#include "claimrag/grounding/answers_file.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("answers.jsonl", data, size);
  const claimrag::grounding::ContextSources inline_only;
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::grounding::read_answers(file, inline_only); });
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::grounding::read_questions(file, inline_only); });
  return 0;
}
