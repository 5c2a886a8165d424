#pragma once
// The subword model behind a tokenizer: it turns one pre-tokenised word into ids.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace claimrag::tokenizer {

/// Token text (UTF-8) → id.
using Vocabulary = std::unordered_map<std::string, std::int32_t>;

class SubwordModel {
 public:
  virtual ~SubwordModel() = default;
  /// Appends the ids of `word` to `ids`.
  virtual void tokenize(const std::u32string& word, std::vector<std::int32_t>& ids) const = 0;
  /// The id of a whole token, when the vocabulary holds it.
  [[nodiscard]] std::optional<std::int32_t> token_to_id(std::string_view token) const;
  /// One more than the largest id (the reference's vocabulary size).
  [[nodiscard]] std::size_t size() const;
  /// "WordPiece" or "BPE".
  [[nodiscard]] virtual std::string name() const = 0;

 protected:
  explicit SubwordModel(Vocabulary vocabulary) : vocabulary_(std::move(vocabulary)) {}
  Vocabulary vocabulary_;
};

}  // namespace claimrag::tokenizer
