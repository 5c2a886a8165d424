#include "claimrag/tokenizer/unicode.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "claimrag/error.hpp"

namespace claimrag::tokenizer::unicode {
namespace {

[[noreturn]] void invalid(std::string_view what, std::size_t offset) {
  throw DataError(std::string(what) + ": invalid UTF-8 at byte " + std::to_string(offset));
}

std::u16string to_utf16(std::u32string_view text) {
  std::u16string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    if (c >= 0x10000) {
      out.push_back(static_cast<char16_t>(U16_LEAD(c)));
      out.push_back(static_cast<char16_t>(U16_TRAIL(c)));
    } else {
      out.push_back(static_cast<char16_t>(c));
    }
  }
  return out;
}

std::u32string from_utf16(const char16_t* text, std::size_t length) {
  std::u32string out;
  out.reserve(length);
  for (std::size_t i = 0; i < length;) {
    UChar32 c = 0;
    U16_NEXT(text, i, length, c);
    out.push_back(static_cast<char32_t>(c));
  }
  return out;
}

}  // namespace

namespace {

// Calls `each(code_point)` for every character of `text`, refusing invalid UTF-8.
template <typename Each>
void decode_each(std::string_view text, std::string_view what, Each&& each) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      each(static_cast<char32_t>(lead));
      ++i;
      continue;
    }
    std::size_t length = 0;
    char32_t c = 0;
    char32_t minimum = 0;
    if ((lead & 0xE0u) == 0xC0u) {
      length = 2, c = lead & 0x1Fu, minimum = 0x80;
    } else if ((lead & 0xF0u) == 0xE0u) {
      length = 3, c = lead & 0x0Fu, minimum = 0x800;
    } else if ((lead & 0xF8u) == 0xF0u) {
      length = 4, c = lead & 0x07u, minimum = 0x10000;
    } else {
      invalid(what, i);
    }
    if (i + length > text.size()) invalid(what, i);
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0u) != 0x80u) invalid(what, i);
      c = (c << 6) | (next & 0x3Fu);
    }
    if (c < minimum || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) invalid(what, i);
    each(c);
    i += length;
  }
}

}  // namespace

std::u32string decode_utf8(std::string_view text, std::string_view what) {
  std::u32string out;
  out.reserve(text.size());
  decode_each(text, what, [&](char32_t c) { out.push_back(c); });
  return out;
}

void check_utf8(std::string_view text, std::string_view what) {
  decode_each(text, what, [](char32_t) {});
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

std::string encode_utf8(std::u32string_view code_points) {
  std::string out;
  out.reserve(code_points.size());
  for (char32_t c : code_points) append_utf8(out, c);
  return out;
}

const char* general_category(char32_t c) {
  switch (u_charType(static_cast<UChar32>(c))) {
    case U_UPPERCASE_LETTER: return "Lu";
    case U_LOWERCASE_LETTER: return "Ll";
    case U_TITLECASE_LETTER: return "Lt";
    case U_MODIFIER_LETTER: return "Lm";
    case U_OTHER_LETTER: return "Lo";
    case U_NON_SPACING_MARK: return "Mn";
    case U_ENCLOSING_MARK: return "Me";
    case U_COMBINING_SPACING_MARK: return "Mc";
    case U_DECIMAL_DIGIT_NUMBER: return "Nd";
    case U_LETTER_NUMBER: return "Nl";
    case U_OTHER_NUMBER: return "No";
    case U_SPACE_SEPARATOR: return "Zs";
    case U_LINE_SEPARATOR: return "Zl";
    case U_PARAGRAPH_SEPARATOR: return "Zp";
    case U_CONTROL_CHAR: return "Cc";
    case U_FORMAT_CHAR: return "Cf";
    case U_PRIVATE_USE_CHAR: return "Co";
    case U_SURROGATE: return "Cs";
    case U_DASH_PUNCTUATION: return "Pd";
    case U_START_PUNCTUATION: return "Ps";
    case U_END_PUNCTUATION: return "Pe";
    case U_CONNECTOR_PUNCTUATION: return "Pc";
    case U_OTHER_PUNCTUATION: return "Po";
    case U_MATH_SYMBOL: return "Sm";
    case U_CURRENCY_SYMBOL: return "Sc";
    case U_MODIFIER_SYMBOL: return "Sk";
    case U_OTHER_SYMBOL: return "So";
    case U_INITIAL_PUNCTUATION: return "Pi";
    case U_FINAL_PUNCTUATION: return "Pf";
    default: return "Cn";
  }
}

bool is_punctuation(char32_t c) { return general_category(c)[0] == 'P'; }
bool is_letter(char32_t c) { return general_category(c)[0] == 'L'; }
bool is_number(char32_t c) { return general_category(c)[0] == 'N'; }
bool is_nonspacing_mark(char32_t c) { return u_charType(static_cast<UChar32>(c)) == U_NON_SPACING_MARK; }
bool is_white_space(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_WHITE_SPACE) != 0; }

bool is_python_space(char32_t c) {
  const auto code = static_cast<UChar32>(c);
  const UCharDirection direction = u_charDirection(code);
  return direction == U_WHITE_SPACE_NEUTRAL || direction == U_BLOCK_SEPARATOR || direction == U_SEGMENT_SEPARATOR ||
         u_charType(code) == U_SPACE_SEPARATOR;
}

bool is_word_character(char32_t c) {
  const auto code = static_cast<UChar32>(c);
  const char category = general_category(c)[0];
  return u_hasBinaryProperty(code, UCHAR_ALPHABETIC) != 0 || category == 'M' ||
         u_charType(code) == U_DECIMAL_DIGIT_NUMBER || u_charType(code) == U_CONNECTOR_PUNCTUATION ||
         u_hasBinaryProperty(code, UCHAR_JOIN_CONTROL) != 0;
}

namespace {

using NormalizerGetter = const icu::Normalizer2* (*)(UErrorCode&);

std::u32string normalize_with(NormalizerGetter get, std::u32string_view text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = get(status);
  if (U_FAILURE(status)) throw InternalError(std::string("ICU's normaliser is unavailable: ") + u_errorName(status));
  const std::u16string wide = to_utf16(text);
  const icu::UnicodeString source(false, wide.data(), static_cast<int32_t>(wide.size()));
  const icu::UnicodeString result = normalizer->normalize(source, status);
  if (U_FAILURE(status)) throw InternalError(std::string("ICU's normalisation failed: ") + u_errorName(status));
  return from_utf16(result.getBuffer(), static_cast<std::size_t>(result.length()));
}

}  // namespace

std::u32string nfd(std::u32string_view text) { return normalize_with(&icu::Normalizer2::getNFDInstance, text); }
std::u32string nfc(std::u32string_view text) { return normalize_with(&icu::Normalizer2::getNFCInstance, text); }
std::u32string nfkc(std::u32string_view text) { return normalize_with(&icu::Normalizer2::getNFKCInstance, text); }
std::u32string nfkd(std::u32string_view text) { return normalize_with(&icu::Normalizer2::getNFKDInstance, text); }

std::u32string lowercase_each(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    if (c < 0x80) {
      out.push_back(c >= 'A' && c <= 'Z' ? c + 32 : c);
      continue;
    }
    // One code point at a time, so that no context (final sigma) changes the mapping.
    const std::u16string one = to_utf16(std::u32string_view(&c, 1));
    char16_t lowered[8];
    UErrorCode status = U_ZERO_ERROR;
    const int32_t length = u_strToLower(lowered, 8, one.data(), static_cast<int32_t>(one.size()), "", &status);
    if (U_FAILURE(status)) throw InternalError(std::string("ICU's lowercase failed: ") + u_errorName(status));
    const std::u32string mapped = from_utf16(lowered, static_cast<std::size_t>(length));
    out += mapped;
  }
  return out;
}

std::u32string lowercase_text(std::u32string_view text) {
  const std::u16string wide = to_utf16(text);
  UErrorCode status = U_ZERO_ERROR;
  const int32_t needed = u_strToLower(nullptr, 0, wide.data(), static_cast<int32_t>(wide.size()), "", &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status))
    throw InternalError(std::string("ICU's lowercase failed: ") + u_errorName(status));
  std::u16string lowered(static_cast<std::size_t>(needed), u'\0');
  status = U_ZERO_ERROR;
  u_strToLower(lowered.data(), needed, wide.data(), static_cast<int32_t>(wide.size()), "", &status);
  if (U_FAILURE(status)) throw InternalError(std::string("ICU's lowercase failed: ") + u_errorName(status));
  return from_utf16(lowered.data(), lowered.size());
}

}  // namespace claimrag::tokenizer::unicode
