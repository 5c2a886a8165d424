#pragma once
// The normalisers of tokenizer.json that encoder checkpoints use: BertNormalizer (clean text,
// pad CJK ideographs with spaces, strip accents, lowercase) and the single steps (Lowercase, NFD,
// NFC, NFKD, NFKC, StripAccents), alone or in a Sequence.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::tokenizer {

/// BertNormalizer's switches. strip_accents follows lowercase when tokenizer.json leaves it null.
struct BertNormalizerOptions {
  bool clean_text = true;
  /// The slow BertTokenizer's rules rather than the tokenizers library's: clean_text drops every
  /// C* character (Cn included: U+FFFE, unassigned code points), not only Cc, Cf and Co; and the
  /// text is put in NFC after the ideographs are padded. Tab, newline and carriage return are
  /// whitespace under both.
  bool slow_class = false;
  bool handle_chinese_chars = true;
  bool strip_accents = true;
  bool lowercase = true;
};

/// A normalisation step defined in its own file (SentencePiece's Precompiled, Replace, Strip).
class NormalizationRule {
 public:
  virtual ~NormalizationRule() = default;
  [[nodiscard]] virtual std::u32string apply(const std::u32string& text) const = 0;
};

/// One normalisation step.
struct NormalizerStep {
  enum class Kind { bert, lowercase, nfd, nfc, nfkd, nfkc, strip_accents, rule };
  Kind kind = Kind::bert;
  BertNormalizerOptions bert;                     ///< for Kind::bert
  std::shared_ptr<const NormalizationRule> rule;  ///< for Kind::rule
};

/// The steps applied in order; none is the identity.
class Normalizer {
 public:
  Normalizer() = default;
  explicit Normalizer(std::vector<NormalizerStep> steps) : steps_(std::move(steps)) {}
  [[nodiscard]] std::u32string apply(std::u32string text) const;
  [[nodiscard]] bool empty() const { return steps_.empty(); }

 private:
  std::vector<NormalizerStep> steps_;
};

/// The ideographs BertNormalizer surrounds with spaces (the CJK Unified Ideographs blocks and
/// their compatibility blocks; not Hangul, Hiragana or Katakana).
bool is_chinese_char(char32_t c);

}  // namespace claimrag::tokenizer
