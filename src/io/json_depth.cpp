#include "claimrag/io/json_depth.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "claimrag/error.hpp"
#include "claimrag/io/input_file.hpp"

namespace claimrag::io {
namespace {

// Whether a JSON number literal is too large for a double: only one with an exponent or with more
// digits than a double's range (10^308) can be, so the common short ones are not converted.
bool overflows_double(std::string_view literal) {
  if (literal.size() <= 300 && literal.find_first_of("eE") == std::string_view::npos) return false;
  const std::string copy(literal);
  return std::isinf(std::strtod(copy.c_str(), nullptr));
}

bool in_number(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

// Calls `visit(i)` for each byte of `text` outside JSON strings (each string's opening quote
// included); `visit` returns the index to go on from (i + 1 to take the next byte; text.size() to
// stop). Brackets and digits inside strings are never seen.
template <typename Visit>
void for_each_byte_outside_strings(std::string_view text, Visit&& visit) {
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      ++i;
      continue;
    }
    if (c == '"') in_string = true;
    i = visit(i);
  }
}

}  // namespace

std::size_t json_nesting_depth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  for_each_byte_outside_strings(text, [&](std::size_t i) {
    const char c = text[i];
    if (c == '[' || c == '{') {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) {
          deepest = limit + 1;
          return text.size();
        }
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    return i + 1;
  });
  return deepest;
}

std::optional<OverflowingNumber> first_overflowing_number(std::string_view text) {
  std::optional<OverflowingNumber> found;
  for_each_byte_outside_strings(text, [&](std::size_t i) {
    const char c = text[i];
    if (c != '-' && (c < '0' || c > '9')) return i + 1;
    std::size_t end = i + 1;
    while (end < text.size() && in_number(text[end])) ++end;
    const std::string_view literal = text.substr(i, end - i);
    if (!overflows_double(literal)) return end;
    const auto line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(i), '\n'));
    found = OverflowingNumber{line, std::string(literal)};
    return text.size();
  });
  return found;
}

std::string_view depth_checked(std::string_view text, const std::string& source) {
  if (json_nesting_depth(text) > kMaxJsonDepth) {
    throw DataError(source, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                " levels of arrays and objects: refused before parsing");
  }
  if (const auto number = first_overflowing_number(text)) {
    throw DataError(source, number->line,
                    "the number " + abbreviated(number->literal, 40) + " is out of range (larger than a double holds)");
  }
  return text;
}

std::string read_json_text(const std::filesystem::path& path, const InputRule& rule) {
  std::string text = read_file(path, rule);
  (void)depth_checked(text, path.string());
  return text;
}

}  // namespace claimrag::io
