#pragma once
// The readers of each tokenizer format of a model folder.

#include <filesystem>
#include <memory>
#include <string_view>

#include "claimrag/tokenizer/tokenizer.hpp"
#include "folder_settings.hpp"

namespace claimrag::tokenizer {

/// tokenizer.json (WordPiece or BPE model, the normalisers, pre-tokenisers and post-processors
/// encoder checkpoints use), with the settings the fast class for `model_type` applies over it.
std::unique_ptr<Tokenizer> read_tokenizer_json(const std::filesystem::path& file, const FolderSettings& settings,
                                               std::string_view model_type);
/// vocab.txt, as the reference converts BertTokenizer's files.
std::unique_ptr<Tokenizer> read_wordpiece_vocabulary(const std::filesystem::path& file, const FolderSettings& settings);
/// Whose special tokens and pair template byte-level BPE files get.
enum class ByteLevelFamily {
  roberta,  ///< <s> A </s></s> B </s>, segment ids all 0
  deberta,  ///< DeBERTa v1: [CLS] A [SEP] B [SEP], segment ids 0 then 1
};
/// vocab.json + merges.txt, as the reference converts RobertaTokenizer's (or DebertaTokenizer's) files.
std::unique_ptr<Tokenizer> read_byte_level_bpe_files(const std::filesystem::path& vocabulary_file,
                                                     const std::filesystem::path& merges_file,
                                                     const FolderSettings& settings,
                                                     ByteLevelFamily family = ByteLevelFamily::roberta);
/// sentencepiece.bpe.model, as XLMRobertaTokenizer reads it (fairseq's ids).
std::unique_ptr<Tokenizer> read_xlm_roberta_sentencepiece(const std::filesystem::path& file, const FolderSettings& settings);
/// spiece.model, as a T5 folder's tokenizer reads it (legacy behaviour, sentinels after the pieces).
std::unique_ptr<Tokenizer> read_t5_sentencepiece(const std::filesystem::path& file, const FolderSettings& settings);
/// spm.model, as DebertaV2Tokenizer reads it.
std::unique_ptr<Tokenizer> read_sentencepiece_model(const std::filesystem::path& file, const FolderSettings& settings);

/// `tokenizer` behind a sentence-transformers folder's text settings (sentence_bert_config.json's
/// do_lower_case and max_seq_length, and the Transformer module's strip of each text).
std::unique_ptr<Tokenizer> with_sentence_transformer_text(std::unique_ptr<Tokenizer> tokenizer,
                                                          const std::filesystem::path& folder);

}  // namespace claimrag::tokenizer
