#pragma once
// What tokenizer_config.json and special_tokens_map.json say about a folder's tokenizer: the
// special tokens (with their matching flags), the added tokens by id, and the switches of the
// older tokenizer classes (do_lower_case, strip_accents, tokenize_chinese_chars, add_prefix_space,
// split_by_punct, truncation_side, T5's extra_ids and legacy).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/tokenizer/added_tokens.hpp"

namespace claimrag::tokenizer {

/// A special token as the configuration writes it (a string, or an object with "content").
struct SpecialTokenSetting {
  std::string content;
  bool lstrip = false;
  bool rstrip = false;
  bool single_word = false;
  std::optional<bool> normalized;
};

struct FolderSettings {
  /// "cls_token", "sep_token", "pad_token", "unk_token", "mask_token", "bos_token", "eos_token".
  std::map<std::string, SpecialTokenSetting> special_tokens;
  /// tokenizer_config.json's added_tokens_decoder (id inside each token).
  std::vector<AddedToken> added_tokens_decoder;
  std::optional<bool> do_lower_case;
  std::optional<bool> strip_accents;
  std::optional<bool> tokenize_chinese_chars;
  std::optional<bool> add_prefix_space;
  std::optional<bool> split_by_punct;
  std::optional<std::string> truncation_side;
  /// T5Tokenizer's sentinel count (extra_ids) and its legacy switch (unset: legacy, as flan-t5's files).
  std::optional<std::int64_t> extra_ids;
  std::optional<bool> legacy;
  /// The tokenizer class named by tokenizer_config.json ("BertTokenizer", "BertTokenizerFast" ...).
  std::optional<std::string> tokenizer_class;
  /// tokenizer_config.json's model_max_length; unset when absent or when it is the "no limit" value
  /// (1e30) the reference writes for a tokenizer without one.
  std::optional<std::size_t> model_max_length;

  /// The content of special token `name`, or `fallback` when the files do not set it.
  [[nodiscard]] std::string token(const std::string& name, const std::string& fallback) const;
};

/// The settings of `folder` (all unset when neither file is there).
FolderSettings read_folder_settings(const std::filesystem::path& folder);

}  // namespace claimrag::tokenizer
