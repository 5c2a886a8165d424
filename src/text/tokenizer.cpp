#include "claimrag/text/tokenizer.hpp"

namespace claimrag::text {

std::vector<std::string> tokenize(std::string_view text) {
  std::vector<std::string> tokens;
  for_each_token(text, [&](std::string_view token) { tokens.emplace_back(token); });
  return tokens;
}

std::size_t count_tokens(std::string_view text) {
  std::size_t count = 0;
  bool inside = false;
  for (const char raw : text) {
    const bool token_byte = is_token_byte(ascii_lower(raw));
    if (token_byte && !inside) ++count;
    inside = token_byte;
  }
  return count;
}

}  // namespace claimrag::text
