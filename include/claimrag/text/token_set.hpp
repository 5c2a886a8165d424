#pragma once
// Token sets and their Jaccard overlap, |A ∩ B| / |A ∪ B| (0 when both are empty).

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::text {

/// The distinct tokens of a text (paper tokenizer), sorted.
using TokenSet = std::vector<std::string>;

TokenSet token_set(std::string_view text);

/// token_set for a loop over many texts: the distinct tokens of one text at a time, sorted, as
/// views into a lower-cased copy of it, with no string per token.
class TokenViews {
 public:
  /// The distinct tokens of `text`, sorted; valid until the next call.
  const std::vector<std::string_view>& of(std::string_view text);

 private:
  std::string lowered_;
  std::vector<std::string_view> tokens_;
};

double jaccard(const TokenSet& a, const TokenSet& b);
/// The same overlap with the second set as views (TokenViews).
double jaccard_with_views(const TokenSet& a, std::span<const std::string_view> b);

}  // namespace claimrag::text
