#include "claimrag/text/token_set.hpp"

#include <algorithm>

#include "claimrag/text/tokenizer.hpp"

namespace claimrag::text {

TokenSet token_set(std::string_view text) {
  TokenSet tokens = tokenize(text);
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  return tokens;
}

const std::vector<std::string_view>& TokenViews::of(std::string_view text) {
  // Lower-casing is byte for byte, so the tokens' spans in `text` are their spans in the copy.
  lowered_.resize(text.size());
  std::transform(text.begin(), text.end(), lowered_.begin(), ascii_lower);
  tokens_.clear();
  const std::string_view lowered(lowered_);
  for_each_token_span(text, [&](std::size_t begin, std::size_t length) { tokens_.push_back(lowered.substr(begin, length)); });
  std::sort(tokens_.begin(), tokens_.end());
  tokens_.erase(std::unique(tokens_.begin(), tokens_.end()), tokens_.end());
  return tokens_;
}

namespace {

// |A ∩ B| / |A ∪ B| of two sorted, distinct token lists.
template <typename First, typename Second>
double jaccard_of_sorted(const First& a, const Second& b) {
  std::size_t common = 0;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++common;
      ++i;
      ++j;
    }
  }
  const std::size_t united = a.size() + b.size() - common;
  return united == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(united);
}

}  // namespace

double jaccard(const TokenSet& a, const TokenSet& b) { return jaccard_of_sorted(a, b); }

double jaccard_with_views(const TokenSet& a, std::span<const std::string_view> b) { return jaccard_of_sorted(a, b); }

}  // namespace claimrag::text
