// tokenizer_config.json beside a WordPiece vocab.txt: the tokenizer class, special tokens, casing,
// lengths and added tokens it sets, loaded as a model folder's tokenizer is and then used.
#include "claimrag/tokenizer/tokenizer.hpp"
#include "encode_texts.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto folder = claimrag::fuzz::scratch_folder() / "tokenizer-config";
  static const bool vocabulary_written = [&] {
    claimrag::fuzz::write_file(folder, "vocab.txt",
                               "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n<s>\n</s>\nthe\nrisk\nof\n##s\nstroke\n.\n,\na\n");
    return true;
  }();
  (void)vocabulary_written;
  claimrag::fuzz::write_file(folder, "tokenizer_config.json", claimrag::fuzz::as_text(data, size));
  claimrag::fuzz::expect_result_or_refusal(
      [&] { claimrag::fuzz::encode_texts(*claimrag::tokenizer::load_tokenizer(folder, "bert")); });
  return 0;
}
