#include "claimrag/text/tokenizer.hpp"

namespace claimrag::text {

std::vector<std::string> tokenize(std::string_view text) {
  std::vector<std::string> tokens;
  for_each_token(text, [&](std::string_view token) { tokens.emplace_back(token); });
  return tokens;
}

std::size_t count_tokens(std::string_view text) {
  std::size_t count = 0;
  for_each_token_span(text, [&](std::size_t, std::size_t) { ++count; });
  return count;
}

}  // namespace claimrag::text
