#include "claimrag/tokenizer/visible_text.hpp"

#include <limits>

#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {
namespace {

bool starts_a_character(char byte) { return (static_cast<unsigned char>(byte) & 0xC0U) != 0x80U; }

}  // namespace

std::string_view visible_text(std::string_view text, std::size_t max_length, TruncationSide side, std::string_view what) {
  unicode::check_utf8(text, what);
  if (max_length == 0 || max_length > std::numeric_limits<std::size_t>::max() / kVisibleCharactersPerToken) return text;
  const std::size_t characters = max_length * kVisibleCharactersPerToken;
  if (text.size() <= characters) return text;  // fewer bytes than characters kept
  std::size_t counted = 0;
  if (side == TruncationSide::right) {
    for (std::size_t at = 0; at < text.size(); ++at) {
      if (starts_a_character(text[at]) && counted++ == characters) return text.substr(0, at);
    }
    return text;
  }
  for (std::size_t at = text.size(); at-- > 0;) {
    if (starts_a_character(text[at]) && ++counted == characters) return text.substr(at);
  }
  return text;
}

}  // namespace claimrag::tokenizer
