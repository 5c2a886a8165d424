#include "claimrag/io/utf8.hpp"

namespace claimrag::io {

std::optional<std::size_t> invalid_utf8_offset(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const auto lead = static_cast<unsigned char>(text[at]);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte (Unicode table 3-7)
    if (lead < 0x80) {
      length = 1;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return at;
    }
    if (at + length > text.size()) return at;
    for (std::size_t next = 1; next < length; ++next) {
      const auto byte = static_cast<unsigned char>(text[at + next]);
      const unsigned char min = next == 1 ? low : 0x80, max = next == 1 ? high : 0xBF;
      if (byte < min || byte > max) return at;
    }
    at += length;
  }
  return std::nullopt;
}

std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  // Back over continuation bytes to the start of the character the cut falls in (at most three).
  for (std::size_t steps = 0; cut > 0 && steps < 3 && (static_cast<unsigned char>(text[cut]) & 0xC0u) == 0x80u; ++steps) --cut;
  return text.substr(0, cut);
}

}  // namespace claimrag::io
