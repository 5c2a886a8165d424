#include "claimrag/text/token_set.hpp"

#include <algorithm>

#include "claimrag/text/tokenizer.hpp"

namespace claimrag::text {

TokenSet token_set(std::string_view text) {
  TokenSet tokens;
  token_set(text, tokens);
  return tokens;
}

void token_set(std::string_view text, TokenSet& tokens) {
  // Assigned into the strings already there, so that a reused set keeps their storage.
  std::size_t count = 0;
  for_each_token(text, [&](std::string_view token) {
    if (count == tokens.size()) {
      tokens.emplace_back(token);
    } else {
      tokens[count].assign(token);
    }
    ++count;
  });
  tokens.resize(count);
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
}

double jaccard(const TokenSet& a, const TokenSet& b) {
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

}  // namespace claimrag::text
