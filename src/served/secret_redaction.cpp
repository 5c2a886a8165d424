#include "claimrag/served/secret_redaction.hpp"

#include <string_view>
#include <utility>
#include <vector>

namespace claimrag::served {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `text` with JSON's string escapes undone ("\u0073" is "s", "\/" is "/"), and for each byte of
// the result the raw bytes it came from, so that a secret found in the unescaped text is replaced
// where it stands in the raw one. Escapes of code points above U+007F are kept as written: an API
// key is ASCII.
struct UnescapedText {
  std::string bytes;
  std::vector<std::size_t> raw_begin;  // per byte of `bytes`; its raw bytes end where the next one's begin
};

UnescapedText unescaped(std::string_view text) {
  UnescapedText out;
  const auto add = [&](char c, std::size_t begin) {
    out.bytes.push_back(c);
    out.raw_begin.push_back(begin);
  };
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      const char next = text[i + 1];
      if (next == 'u' && i + 5 < text.size()) {
        int code = 0;
        for (std::size_t d = 2; d < 6 && code >= 0; ++d) code = hex_value(text[i + d]) < 0 ? -1 : code * 16 + hex_value(text[i + d]);
        if (code >= 0 && code < 0x80) {
          add(static_cast<char>(code), i);
          i += 6;
          continue;
        }
      } else if (std::string_view("\"\\/").find(next) != std::string_view::npos) {
        add(next, i);
        i += 2;
        continue;
      }
    }
    add(text[i], i);
    ++i;
  }
  return out;
}

}  // namespace

std::string SecretRedaction::text(std::string text) const {
  if (secret_.empty()) return text;
  for (std::size_t at = text.find(secret_); at != std::string::npos; at = text.find(secret_, at + kRedactedKey.size())) {
    text.replace(at, secret_.size(), kRedactedKey);
  }
  // Only an escape that can stand for a key's character needs the unescaped view (a large reply
  // full of escaped quotes is not decoded for nothing).
  const bool key_has_escaped_characters = secret_.find_first_of("\"\\") != std::string::npos;
  if (text.find("\\u") == std::string::npos && text.find("\\/") == std::string::npos && !key_has_escaped_characters) {
    return text;
  }
  // An echo written with JSON escapes ("\u0073\u006b-…", or a few characters escaped): found in the
  // unescaped text, replaced in the raw one, from the last occurrence back so offsets stay valid.
  const UnescapedText plain = unescaped(text);
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (std::size_t at = plain.bytes.find(secret_); at != std::string::npos; at = plain.bytes.find(secret_, at + secret_.size())) {
    const std::size_t after = at + secret_.size();
    ranges.emplace_back(plain.raw_begin[at], after < plain.raw_begin.size() ? plain.raw_begin[after] : text.size());
  }
  for (auto range = ranges.rbegin(); range != ranges.rend(); ++range) {
    text.replace(range->first, range->second - range->first, kRedactedKey);
  }
  return text;
}

void SecretRedaction::json(nlohmann::json& value) const {
  if (secret_.empty()) return;
  // An explicit stack: the reply's nesting is capped before parsing, but no recursion is needed.
  std::vector<nlohmann::json*> pending{&value};
  while (!pending.empty()) {
    nlohmann::json& item = *pending.back();
    pending.pop_back();
    if (item.is_string()) {
      auto& string = item.get_ref<std::string&>();
      if (string.find(secret_) != std::string::npos) string = text(std::move(string));
    } else if (item.is_array()) {
      for (auto& element : item) pending.push_back(&element);
    } else if (item.is_object()) {
      bool key_holds_secret = false;
      for (auto& [key, element] : item.items()) key_holds_secret = key_holds_secret || key.find(secret_) != std::string::npos;
      if (key_holds_secret) {
        nlohmann::json renamed = nlohmann::json::object();
        for (auto& [key, element] : item.items()) renamed[text(key)] = std::move(element);
        item = std::move(renamed);
      }
      for (auto& [key, element] : item.items()) pending.push_back(&element);
    }
  }
}

}  // namespace claimrag::served
