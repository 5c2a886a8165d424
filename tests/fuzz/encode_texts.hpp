#pragma once
// A loaded tokenizer's every path run once: single texts and a pair, with and without truncation,
// over ASCII, accented and CJK text, whitespace and special-looking tokens.
#include "claimrag/tokenizer/tokenizer.hpp"

namespace claimrag::fuzz {

inline void encode_texts(const tokenizer::Tokenizer& tokenizer) {
  static constexpr std::string_view kTexts[] = {
      "Aspirin lowers the risk of stroke.", "  Café naïve ÅNGSTRÖM\t\n", "維生素D 缺乏", "[CLS] <s> </s> [MASK] <unk>", ""};
  for (const auto text : kTexts) {
    (void)tokenizer.encode(text, std::nullopt, 0);
    (void)tokenizer.encode(text, kTexts[0], 8);
  }
  (void)tokenizer.vocabulary_size();
  (void)tokenizer.description();
}

}  // namespace claimrag::fuzz
