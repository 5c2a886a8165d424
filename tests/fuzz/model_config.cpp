// A model folder's config.json, read as every pretrained encoder reads it.
#include "claimrag/pretrained/model_config.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto folder = claimrag::fuzz::write_scratch("config.json", data, size).parent_path();
  claimrag::fuzz::expect_result_or_refusal([&] {
    const auto config = claimrag::pretrained::read_model_config(folder);
    (void)config.max_tokens();
    (void)config.attention_span();
  });
  return 0;
}
