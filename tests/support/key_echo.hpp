#pragma once
// A server echoing the API key back as a hostile or careless one does: written with JSON's
// \u escapes, and looked for in part as well as whole (a cut key leaks as well as a whole one).

#include <string>
#include <string_view>

namespace claimrag::testing {

/// `text` with every byte written as a JSON \u00XX escape ("sk" -> "\u0073\u006b").
inline std::string json_unicode_escaped(std::string_view text) {
  std::string escaped;
  constexpr char kHex[] = "0123456789abcdef";
  for (const char c : text) {
    escaped += "\\u00";
    escaped.push_back(kHex[(static_cast<unsigned char>(c) >> 4) & 0xf]);
    escaped.push_back(kHex[static_cast<unsigned char>(c) & 0xf]);
  }
  return escaped;
}

/// Whether `text` holds any 8 consecutive characters of `key`.
inline bool holds_part_of_key(std::string_view text, std::string_view key) {
  for (std::size_t at = 0; at + 8 <= key.size(); ++at) {
    if (text.find(key.substr(at, 8)) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace claimrag::testing
