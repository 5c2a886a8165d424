#pragma once
// Token sets and their Jaccard overlap, |A ∩ B| / |A ∪ B| (0 when both are empty).

#include <string>
#include <string_view>
#include <vector>

namespace claimrag::text {

/// The distinct tokens of a text (paper tokenizer), sorted.
using TokenSet = std::vector<std::string>;

TokenSet token_set(std::string_view text);
/// token_set(text) written into `tokens`, whose storage is reused (for loops over many texts).
void token_set(std::string_view text, TokenSet& tokens);

double jaccard(const TokenSet& a, const TokenSet& b);

}  // namespace claimrag::text
