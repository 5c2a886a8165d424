// Which tokenizer file of a model folder is read, in the reference's order of preference.
#include "claimrag/error.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "readers.hpp"

namespace claimrag::tokenizer {

std::unique_ptr<Tokenizer> load_tokenizer(const std::filesystem::path& folder, std::string_view model_type) {
  const FolderSettings settings = read_folder_settings(folder);
  const bool has_vocab_txt = std::filesystem::exists(folder / "vocab.txt");
  const bool has_bpe = std::filesystem::exists(folder / "vocab.json") && std::filesystem::exists(folder / "merges.txt");
  const bool has_spm = std::filesystem::exists(folder / "spm.model");
  const bool deberta = model_type == "deberta-v2" || model_type == "deberta_v2";
  // DeBERTa-v2/v3 folders often ship a converted tokenizer.json (a Unigram model) beside spm.model:
  // the SentencePiece model is the original, read as DebertaV2Tokenizer reads it.
  if (deberta && has_spm) return read_sentencepiece_model(folder / "spm.model", settings);
  if (std::filesystem::exists(folder / "tokenizer.json")) return read_tokenizer_json(folder / "tokenizer.json", settings);
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
                  "no tokenizer found (looked for tokenizer.json, vocab.txt, vocab.json with merges.txt, spm.model)");
}

}  // namespace claimrag::tokenizer
