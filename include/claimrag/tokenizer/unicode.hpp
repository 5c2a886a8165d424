#pragma once
// The Unicode facts the tokenizers need: UTF-8 decoding that refuses invalid bytes, general
// categories, White_Space, NFD and full lowercase of one code point. They come from ICU (Debian's
// libicu-dev) rather than hand-written tables: the reference tokenizers ask the same questions of
// full Unicode tables (Rust's char methods, Python's unicodedata), and ICU is the maintained copy
// of those tables, with the decompositions and multi-character lowercase mappings (İ → i̇) that
// a table of single code points would miss.

#include <cstddef>
#include <string>
#include <string_view>

namespace claimrag::tokenizer::unicode {

/// The code points of `text`. DataError "<what>: invalid UTF-8 at byte N" for an overlong form, a
/// surrogate, a code point beyond U+10FFFF, a stray continuation byte or a truncated sequence.
std::u32string decode_utf8(std::string_view text, std::string_view what = "text");
/// The errors of decode_utf8, without decoding.
void check_utf8(std::string_view text, std::string_view what = "text");
/// `code_points` as UTF-8.
std::string encode_utf8(std::u32string_view code_points);
/// Appends one code point as UTF-8.
void append_utf8(std::string& out, char32_t code_point);

/// The two-letter general category ("Lu", "Mn", "Po", "Cn" ...).
const char* general_category(char32_t c);
/// General category P* (Pc Pd Ps Pe Pi Pf Po).
bool is_punctuation(char32_t c);
/// General category L*.
bool is_letter(char32_t c);
/// General category N* (Nd Nl No).
bool is_number(char32_t c);
/// General category Mn.
bool is_nonspacing_mark(char32_t c);
/// The White_Space property (Rust's char::is_whitespace, regex's \s).
bool is_white_space(char32_t c);
/// Python's str.isspace (what str.strip and str.split remove): bidirectional class WS, B or S, or
/// general category Zs.
bool is_python_space(char32_t c);
/// A character of regex's \w: Alphabetic, a mark, Nd, Pc or Join_Control.
bool is_word_character(char32_t c);

/// The canonical decomposition (NFD) of `text`.
std::u32string nfd(std::u32string_view text);
/// The compositions NFC, NFKC and the compatibility decomposition NFKD of `text`.
std::u32string nfc(std::u32string_view text);
std::u32string nfkc(std::u32string_view text);
std::u32string nfkd(std::u32string_view text);
/// The full lowercase mapping of each code point on its own (no context, as Rust's
/// char::to_lowercase: a final capital sigma becomes σ, İ becomes i + U+0307).
std::u32string lowercase_each(std::u32string_view text);

/// The full lowercase of `text` as one string, with context (a final capital sigma becomes ς), as
/// Python's str.lower().
std::u32string lowercase_text(std::u32string_view text);

}  // namespace claimrag::tokenizer::unicode
