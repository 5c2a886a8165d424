// tokenizer.json: every model kind (WordPiece, BPE, Unigram) with its normalizers, pre-tokenizers,
// post-processor and added tokens, loaded as a model folder's tokenizer is and then used.
#include "claimrag/tokenizer/tokenizer.hpp"
#include "encode_texts.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto folder = claimrag::fuzz::write_scratch("tokenizer.json", data, size).parent_path();
  claimrag::fuzz::expect_result_or_refusal(
      [&] { claimrag::fuzz::encode_texts(*claimrag::tokenizer::load_tokenizer(folder, "bert")); });
  return 0;
}
