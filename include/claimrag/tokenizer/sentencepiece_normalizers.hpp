#pragma once
// The normalisers the tokenizers library writes for SentencePiece-based tokenizers (XLM-RoBERTa,
// bge-m3, multilingual-e5 ...): Precompiled (the model's own character map), Replace (a literal
// string or a regular expression, every non-overlapping match) and Strip (whitespace at either end).

#include <memory>
#include <string>

#include "claimrag/tokenizer/normalizer.hpp"
#include "claimrag/tokenizer/precompiled_charsmap.hpp"

namespace claimrag::tokenizer {

/// Precompiled: the character map applied as the tokenizers library applies it.
class PrecompiledNormalizer final : public NormalizationRule {
 public:
  explicit PrecompiledNormalizer(std::shared_ptr<const PrecompiledCharsmap> charsmap) : charsmap_(std::move(charsmap)) {}
  [[nodiscard]] std::u32string apply(const std::u32string& text) const override;

 private:
  std::shared_ptr<const PrecompiledCharsmap> charsmap_;
};

/// Replace: each leftmost non-overlapping match of `pattern` becomes `content`.
class ReplaceNormalizer final : public NormalizationRule {
 public:
  /// `is_regex`: `pattern` is a regular expression (ICU syntax, which agrees with the reference's
  /// Oniguruma on the patterns tokenizer files use), else a literal string. DataError naming
  /// `source` for an empty or invalid pattern.
  ReplaceNormalizer(const std::string& pattern, bool is_regex, const std::string& content, const std::string& source);
  ~ReplaceNormalizer() override;
  [[nodiscard]] std::u32string apply(const std::u32string& text) const override;

 private:
  struct Compiled;
  std::u32string literal_;
  std::u32string content_;
  std::unique_ptr<Compiled> regex_;
};

/// Strip: White_Space characters removed from the left and/or right end.
class StripNormalizer final : public NormalizationRule {
 public:
  StripNormalizer(bool left, bool right) : left_(left), right_(right) {}
  [[nodiscard]] std::u32string apply(const std::u32string& text) const override;

 private:
  bool left_;
  bool right_;
};

}  // namespace claimrag::tokenizer
