#include "claimrag/tokenizer/normalizer.hpp"

#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {
namespace {

// BertNormalizer counts tab, newline and carriage return as whitespace, never as control.
bool is_bert_whitespace(char32_t c) { return c == U'\t' || c == U'\n' || c == U'\r' || unicode::is_white_space(c); }

// The tokenizers library asks its Unicode table's is_other, which covers Cc, Cf and Co (not Cn:
// unassigned code points are kept); the slow BertTokenizer's _is_control takes every category
// starting with C. Tab, newline and carriage return are never control.
bool is_bert_control(char32_t c, bool every_other_category) {
  if (c == U'\t' || c == U'\n' || c == U'\r') return false;
  const char* category = unicode::general_category(c);
  if (category[0] != 'C') return false;
  return every_other_category || category[1] == 'c' || category[1] == 'f' || category[1] == 'o';
}

std::u32string clean_text(const std::u32string& text, bool every_other_category) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    if (c == 0 || c == 0xFFFD || is_bert_control(c, every_other_category)) continue;
    out.push_back(is_bert_whitespace(c) ? U' ' : c);
  }
  return out;
}

std::u32string pad_chinese_chars(const std::u32string& text) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t c : text) {
    if (is_chinese_char(c)) {
      out.push_back(U' ');
      out.push_back(c);
      out.push_back(U' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::u32string strip_accents(const std::u32string& text) {
  std::u32string out;
  for (char32_t c : unicode::nfd(text))
    if (!unicode::is_nonspacing_mark(c)) out.push_back(c);
  return out;
}

std::u32string apply_bert(std::u32string text, const BertNormalizerOptions& options) {
  // The reference's order: clean, pad ideographs, strip accents (after NFD), then lowercase. The
  // slow class lowercases first, character by character, which gives the same text.
  if (options.clean_text) text = clean_text(text, options.slow_class);
  if (options.handle_chinese_chars) text = pad_chinese_chars(text);
  if (options.slow_class) text = unicode::nfc(text);
  if (options.strip_accents) text = strip_accents(text);
  if (options.lowercase) text = unicode::lowercase_each(text);
  return text;
}

}  // namespace

bool is_chinese_char(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

std::u32string Normalizer::apply(std::u32string text) const {
  for (const NormalizerStep& step : steps_) {
    switch (step.kind) {
      case NormalizerStep::Kind::bert: text = apply_bert(std::move(text), step.bert); break;
      case NormalizerStep::Kind::lowercase: text = unicode::lowercase_each(text); break;
      case NormalizerStep::Kind::nfd: text = unicode::nfd(text); break;
      case NormalizerStep::Kind::nfc: text = unicode::nfc(text); break;
      case NormalizerStep::Kind::nfkd: text = unicode::nfkd(text); break;
      case NormalizerStep::Kind::nfkc: text = unicode::nfkc(text); break;
      case NormalizerStep::Kind::rule: text = step.rule->apply(text); break;
      case NormalizerStep::Kind::strip_accents: {
        // StripAccents alone removes nonspacing marks without decomposing first.
        std::u32string kept;
        for (char32_t c : text)
          if (!unicode::is_nonspacing_mark(c)) kept.push_back(c);
        text = std::move(kept);
        break;
      }
    }
  }
  return text;
}

}  // namespace claimrag::tokenizer
