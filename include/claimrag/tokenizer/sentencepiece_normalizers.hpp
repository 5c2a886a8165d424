#pragma once
// The normalisers the tokenizers library writes for SentencePiece-based tokenizers (XLM-RoBERTa,
// bge-m3, multilingual-e5 ...): Precompiled (the model's own character map), Replace (a literal
// string or a regular expression, every non-overlapping match) and Strip (whitespace at either end).

#include <cstdint>
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

/// The bound on one search of a Replace normalizer's regular expression, in the units of ICU's
/// RegexMatcher::setTimeLimit (steps of its engine, of the order of a millisecond each).
inline constexpr std::int32_t kReplaceRegexTimeLimit = 200;
/// The bound on the memory one search may use for backtracking, in bytes.
inline constexpr std::int32_t kReplaceRegexStackBytes = 1 << 20;

/// Replace: each leftmost non-overlapping match of `pattern` becomes `content`. A search that
/// passes the bounds above is a DataError naming the tokenizer file.
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
  std::string source_;
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
