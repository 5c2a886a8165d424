// Which tokenizer file of a model folder is read, in AutoTokenizer's order of preference: the fast
// tokenizer's tokenizer.json whenever the folder has one (DeBERTa-v2/v3 included), else the files
// of the slow classes.
#include "claimrag/error.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "readers.hpp"

namespace claimrag::tokenizer {
namespace {

std::unique_ptr<Tokenizer> load_folder_tokenizer(const std::filesystem::path& folder, std::string_view model_type) {
  const FolderSettings settings = read_folder_settings(folder);
  if (std::filesystem::exists(folder / "tokenizer.json"))
    return read_tokenizer_json(folder / "tokenizer.json", settings, model_type);
  const bool has_vocab_txt = std::filesystem::exists(folder / "vocab.txt");
  const bool has_bpe = std::filesystem::exists(folder / "vocab.json") && std::filesystem::exists(folder / "merges.txt");
  const bool has_spm = std::filesystem::exists(folder / "spm.model");
  const bool deberta = model_type == "deberta-v2" || model_type == "deberta_v2";
  // XLM-RoBERTa's slow tokenizer file (CamemBERT and mBART name theirs alike with other ids).
  const bool xlm_roberta = model_type == "xlm-roberta" || model_type == "xlm_roberta";
  if (xlm_roberta && std::filesystem::exists(folder / "sentencepiece.bpe.model"))
    return read_xlm_roberta_sentencepiece(folder / "sentencepiece.bpe.model", settings);
  // spiece.model is T5Tokenizer's file (its vocab_files_names), read as T5's for a t5 folder or class.
  if (std::filesystem::exists(folder / "spiece.model") && (model_type == "t5" || settings.tokenizer_class == "T5Tokenizer" ||
                                                           settings.tokenizer_class == "T5TokenizerFast"))
    return read_t5_sentencepiece(folder / "spiece.model", settings);
  // model_type settles a folder holding several older files; otherwise the one present is read.
  const bool roberta_like = model_type == "roberta" || model_type == "bart" || model_type == "longformer";
  if (has_bpe && model_type == "deberta") {
    return read_byte_level_bpe_files(folder / "vocab.json", folder / "merges.txt", settings, ByteLevelFamily::deberta);
  }
  if (has_spm && (deberta || (!has_vocab_txt && !has_bpe))) return read_sentencepiece_model(folder / "spm.model", settings);
  if (has_bpe && (roberta_like || !has_vocab_txt))
    return read_byte_level_bpe_files(folder / "vocab.json", folder / "merges.txt", settings);
  if (has_vocab_txt) return read_wordpiece_vocabulary(folder / "vocab.txt", settings);
  throw DataError(folder.string(),
                  "no tokenizer found (looked for tokenizer.json, vocab.txt, vocab.json with merges.txt, spm.model, "
                  "sentencepiece.bpe.model for xlm-roberta, and spiece.model for t5)");
}

}  // namespace

std::unique_ptr<Tokenizer> load_tokenizer(const std::filesystem::path& folder, std::string_view model_type) {
  std::unique_ptr<Tokenizer> tokenizer = load_folder_tokenizer(folder, model_type);
  // A sentence-transformers folder: its Transformer module prepares each text first.
  if (std::filesystem::exists(folder / "modules.json")) return with_sentence_transformer_text(std::move(tokenizer), folder);
  return tokenizer;
}

}  // namespace claimrag::tokenizer
