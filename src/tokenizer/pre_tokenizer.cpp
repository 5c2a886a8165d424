#include "claimrag/tokenizer/pre_tokenizer.hpp"

#include <array>

#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {
namespace {

bool is_ascii_punctuation(char32_t c) {
  return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
}

// Words between whitespace; with `isolate_punctuation`, each punctuation character is a word too.
std::vector<std::u32string> split_at_whitespace(const std::u32string& text, bool isolate_punctuation) {
  std::vector<std::u32string> words;
  std::u32string current;
  const auto finish_word = [&] {
    if (!current.empty()) words.push_back(std::move(current));
    current.clear();
  };
  for (char32_t c : text) {
    if (unicode::is_white_space(c)) {
      finish_word();
    } else if (isolate_punctuation && is_bert_punctuation(c)) {
      finish_word();
      words.emplace_back(1, c);
    } else {
      current.push_back(c);
    }
  }
  finish_word();
  return words;
}

// The Whitespace pre-tokeniser's pattern \w+|[^\w\s]+.
std::vector<std::u32string> word_or_symbol_split(const std::u32string& text) {
  std::vector<std::u32string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    if (unicode::is_white_space(text[i])) {
      ++i;
      continue;
    }
    const bool word = unicode::is_word_character(text[i]);
    std::size_t end = i;
    while (end < text.size() && !unicode::is_white_space(text[end]) && unicode::is_word_character(text[end]) == word) ++end;
    words.push_back(text.substr(i, end - i));
    i = end;
  }
  return words;
}

std::size_t run_of(const std::u32string& text, std::size_t from, bool (*in_class)(char32_t)) {
  std::size_t end = from;
  while (end < text.size() && in_class(text[end])) ++end;
  return end;
}

bool is_other_symbol(char32_t c) { return !unicode::is_white_space(c) && !unicode::is_letter(c) && !unicode::is_number(c); }

// The length of GPT-2's match starting at `i` (always at least 1).
std::size_t gpt2_match_length(const std::u32string& text, std::size_t i) {
  const std::size_t n = text.size();
  if (text[i] == U'\'' && i + 1 < n) {
    const char32_t a = text[i + 1];
    if (a == U's' || a == U't' || a == U'm' || a == U'd') return 2;
    if (i + 2 < n) {
      const char32_t b = text[i + 2];
      if ((a == U'r' && b == U'e') || (a == U'v' && b == U'e') || (a == U'l' && b == U'l')) return 3;
    }
  }
  // " ?X+" for the three classes, in the pattern's order; the optional space is U+0020 only.
  const std::size_t body = text[i] == U' ' ? i + 1 : i;
  for (auto* in_class : {&unicode::is_letter, &unicode::is_number, &is_other_symbol}) {
    const std::size_t end = run_of(text, body, in_class);
    if (end > body) return end - i;
  }
  // \s+(?!\S): the whitespace run, less its last character when a non-space follows it.
  const std::size_t end = run_of(text, i, &unicode::is_white_space);
  if (end > i) {
    if (end == n) return end - i;
    if (end - i >= 2) return end - i - 1;
    return 1;  // \s+
  }
  return 1;  // unreachable: every character is in one of the classes
}

const std::array<char32_t, 256>& byte_symbols() {
  static const std::array<char32_t, 256> table = [] {
    std::array<char32_t, 256> symbols{};
    char32_t next = 256;
    for (int byte = 0; byte < 256; ++byte) {
      const bool printable = (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174 && byte <= 255);
      symbols[static_cast<std::size_t>(byte)] = printable ? static_cast<char32_t>(byte) : next++;
    }
    return symbols;
  }();
  return table;
}

}  // namespace

bool is_bert_punctuation(char32_t c) { return is_ascii_punctuation(c) || unicode::is_punctuation(c); }

std::vector<std::u32string> gpt2_split(const std::u32string& text) {
  std::vector<std::u32string> pieces;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = gpt2_match_length(text, i);
    pieces.push_back(text.substr(i, length));
    i += length;
  }
  return pieces;
}

char32_t byte_to_symbol(unsigned char byte) { return byte_symbols()[byte]; }

std::u32string to_byte_symbols(const std::u32string& text) {
  std::u32string out;
  for (unsigned char byte : unicode::encode_utf8(text)) out.push_back(byte_to_symbol(byte));
  return out;
}

std::vector<std::u32string> PreTokenizer::split(const std::u32string& text, bool at_text_start) const {
  switch (kind_) {
    case Kind::metaspace: {
      if (!metaspace_.after_whitespace_split) return metaspace_split(text, metaspace_, at_text_start);
      // The "first" scheme prepends to the split at offset 0 of the text only: the first word,
      // when no whitespace comes before it.
      bool first = at_text_start && !text.empty() && !unicode::is_white_space(text.front());
      std::vector<std::u32string> words;
      for (const std::u32string& word : split_at_whitespace(text, false)) {
        for (std::u32string& part : metaspace_split(word, metaspace_, first)) words.push_back(std::move(part));
        first = false;
      }
      return words;
    }
    case Kind::none: return text.empty() ? std::vector<std::u32string>{} : std::vector<std::u32string>{text};
    case Kind::bert: return split_at_whitespace(text, true);
    case Kind::whitespace: return word_or_symbol_split(text);
    case Kind::whitespace_split: return split_at_whitespace(text, false);
    case Kind::byte_level: {
      if (text.empty()) return {};
      std::u32string prefixed = text;
      if (add_prefix_space_ && prefixed.front() != U' ') prefixed.insert(prefixed.begin(), U' ');
      std::vector<std::u32string> words = use_regex_ ? gpt2_split(prefixed) : std::vector<std::u32string>{prefixed};
      for (std::u32string& word : words) word = to_byte_symbols(word);
      return words;
    }
  }
  return {};
}

}  // namespace claimrag::tokenizer
