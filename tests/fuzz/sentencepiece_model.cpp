// SentencePiece models: the same bytes as DeBERTa-v2/v3's spm.model and as XLM-RoBERTa's
// sentencepiece.bpe.model (its fairseq ids), each loaded as a model folder's tokenizer and used.
#include "claimrag/tokenizer/tokenizer.hpp"
#include "encode_texts.hpp"
#include "fuzz_target.hpp"

namespace {

void load_and_encode(const char* file, const char* model_type, std::string_view bytes) {
  const auto folder = claimrag::fuzz::scratch_folder() / model_type;
  claimrag::fuzz::write_file(folder, file, bytes);
  claimrag::fuzz::expect_result_or_refusal(
      [&] { claimrag::fuzz::encode_texts(*claimrag::tokenizer::load_tokenizer(folder, model_type)); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = claimrag::fuzz::as_text(data, size);
  load_and_encode("spm.model", "deberta-v2", bytes);
  load_and_encode("sentencepiece.bpe.model", "xlm-roberta", bytes);
  return 0;
}
