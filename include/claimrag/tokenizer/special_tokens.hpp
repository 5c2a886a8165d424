#pragma once
// The special tokens of a model folder's tokenizer as the reference library names them, for code
// that writes them into a text itself (a grounding checker joins a chunk and a claim with the
// end-of-sequence token, tokenized with the text as the special token it is).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace claimrag::tokenizer {

/// The folder's eos_token: tokenizer_config.json's or special_tokens_map.json's, else the default
/// of the tokenizer class `model_type` (config.json's) loads: "</s>" for RoBERTa, XLM-RoBERTa,
/// BART and T5, "[SEP]" for DeBERTa; none for BERT, whose tokenizer has no such token.
std::optional<std::string> end_of_sequence_token(const std::filesystem::path& folder, std::string_view model_type);

}  // namespace claimrag::tokenizer
