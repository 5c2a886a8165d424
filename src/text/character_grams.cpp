#include "claimrag/text/character_grams.hpp"

#include "claimrag/error.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::text {

std::string character_grams(std::string_view text, std::size_t n) {
  if (n == 0) throw UsageError("character grams: n must be at least 1");
  std::string grams;
  const auto append = [&](std::string_view gram) {
    if (!grams.empty()) grams.push_back(' ');
    grams.append(gram);
  };
  for_each_token(text, [&](std::string_view token) {
    if (token.size() <= n) {
      append(token);
      return;
    }
    for (std::size_t i = 0; i + n <= token.size(); ++i) append(token.substr(i, n));
  });
  return grams;
}

}  // namespace claimrag::text
