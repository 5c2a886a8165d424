#include "claimrag/tokenizer/precompiled_charsmap.hpp"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <memory>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {
namespace {

// The fields of one Darts-clone unit.
bool has_leaf(std::uint32_t unit) { return ((unit >> 8) & 1U) == 1U; }
std::uint32_t value_of(std::uint32_t unit) { return unit & ((1U << 31) - 1U); }
std::uint32_t label_of(std::uint32_t unit) { return unit & ((1U << 31) | 0xFFU); }
std::uint32_t offset_of(std::uint32_t unit) { return (unit >> 10) << ((unit & (1U << 9)) >> 6); }

// The length of the valid UTF-8 character starting `bytes` (0 when it is not one), by
// SentencePiece's rule: shortest form, no surrogates, at most U+10FFFF.
std::size_t valid_utf8_length(std::string_view bytes) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
  const auto continuation = [&](std::size_t i) { return i < bytes.size() && (byte(i) & 0xC0U) == 0x80U; };
  const unsigned char lead = byte(0);
  if (lead < 0x80U) return 1;
  if (lead >= 0xC2U && lead <= 0xDFU) return continuation(1) ? 2 : 0;
  if (lead >= 0xE0U && lead <= 0xEFU) {
    if (!continuation(1) || !continuation(2)) return 0;
    const char32_t c = ((lead & 0x0FU) << 12) | ((byte(1) & 0x3FU) << 6) | (byte(2) & 0x3FU);
    return c < 0x800 || (c >= 0xD800 && c <= 0xDFFF) ? 0 : 3;
  }
  if (lead >= 0xF0U && lead <= 0xF4U) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
    const char32_t c = ((lead & 0x07U) << 18) | ((byte(1) & 0x3FU) << 12) | ((byte(2) & 0x3FU) << 6) | (byte(3) & 0x3FU);
    return c < 0x10000 || c > 0x10FFFF ? 0 : 4;
  }
  return 0;
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string decode_base64(std::string_view text, const std::string& source) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;
  int count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const int value = base64_value(text[i]);
    if (value < 0) throw DataError(source, "precompiled_charsmap: not base64 (character " + std::to_string(i) + ")");
    bits = (bits << 6) | static_cast<std::uint32_t>(value);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFFU));
    }
  }
  if (count >= 6) throw DataError(source, "precompiled_charsmap: base64 of a wrong length");
  return out;
}

PrecompiledCharsmap::PrecompiledCharsmap(std::string_view blob, std::string source) : source_(std::move(source)) {
  const auto broken = [&](const std::string& why) { throw DataError(source_, "precompiled_charsmap is broken: " + why); };
  if (blob.size() <= 4) broken("shorter than its header");
  std::uint32_t trie_bytes = 0;
  for (int i = 3; i >= 0; --i) trie_bytes = (trie_bytes << 8) | static_cast<unsigned char>(blob[static_cast<std::size_t>(i)]);
  if (trie_bytes > blob.size() - 4) broken("its trie size " + std::to_string(trie_bytes) + " exceeds the blob");
  if (trie_bytes < 4) broken("its trie is empty");
  trie_.resize(trie_bytes / 4);
  for (std::size_t u = 0; u < trie_.size(); ++u) {
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<unsigned char>(blob[4 + u * 4 + static_cast<std::size_t>(i)]);
    trie_[u] = value;
  }
  replacements_ = std::string(blob.substr(4 + trie_bytes));
  // A rule's replacement runs from its offset to the next NUL: the longest run between NULs bounds
  // every replacement, and with it how much longer normalisation can make a text.
  std::size_t run_start = 0;
  while (run_start <= replacements_.size()) {
    const std::size_t end = std::min(replacements_.find('\0', run_start), replacements_.size());
    if (end - run_start > kCharsmapLongestReplacement) {
      broken("a replacement of " + std::to_string(end - run_start) + " bytes (at byte " + std::to_string(run_start) +
             " of the replacements) is longer than the " + std::to_string(kCharsmapLongestReplacement) + " bytes allowed");
    }
    run_start = end + 1;
  }
}

std::uint32_t PrecompiledCharsmap::unit(std::size_t index) const {
  if (index >= trie_.size()) throw DataError(source_, "precompiled_charsmap is broken: a trie link leaves the trie");
  return trie_[index];
}

std::string_view PrecompiledCharsmap::replacement(std::uint32_t offset) const {
  if (offset >= replacements_.size())
    throw DataError(source_, "precompiled_charsmap is broken: a rule points past its replacement strings");
  const std::size_t end = replacements_.find('\0', offset);
  return std::string_view(replacements_).substr(offset, end == std::string::npos ? std::string::npos : end - offset);
}

void PrecompiledCharsmap::check_every_walk() const {
  // The walk of prefix_matches() from every node a text can reach: a byte c moves from a node to
  // (base ^ c), so every c in 1..255 stays inside the trie when (base | 0xFF) does. A damaged trie
  // may link back to a node seen before; each node is checked once.
  std::vector<bool> seen(trie_.size(), false);
  std::vector<std::size_t> bases = {offset_of(unit(0))};
  while (!bases.empty()) {
    const std::size_t base = bases.back();
    bases.pop_back();
    (void)unit(base | 0xFFU);
    for (std::size_t c = 1; c <= 0xFFU; ++c) {
      const std::size_t node = base ^ c;
      const std::uint32_t current = trie_[node];
      if (label_of(current) != c || seen[node]) continue;
      seen[node] = true;
      const std::size_t next = node ^ offset_of(current);
      if (has_leaf(current)) (void)replacement(value_of(unit(next)));
      bases.push_back(next);
    }
  }
}

std::vector<std::pair<std::size_t, std::string_view>> PrecompiledCharsmap::prefix_matches(std::string_view bytes) const {
  std::vector<std::pair<std::size_t, std::string_view>> matches;
  std::size_t node = offset_of(unit(0));
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == 0) break;
    node ^= c;
    const std::uint32_t current = unit(node);
    if (label_of(current) != c) break;
    node ^= offset_of(current);
    if (has_leaf(current)) matches.emplace_back(i + 1, replacement(value_of(unit(node))));
  }
  return matches;
}

std::string PrecompiledCharsmap::normalize_like_sentencepiece(std::string_view bytes) const {
  std::string out;
  out.reserve(bytes.size());
  while (!bytes.empty()) {
    const auto matches = prefix_matches(bytes);
    if (!matches.empty()) {
      out += matches.back().second;  // the longest
      bytes.remove_prefix(matches.back().first);
      continue;
    }
    const std::size_t length = valid_utf8_length(bytes);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // one invalid byte becomes U+FFFD
      bytes.remove_prefix(1);
    } else {
      out += bytes.substr(0, length);
      bytes.remove_prefix(length);
    }
  }
  return out;
}

std::u32string PrecompiledCharsmap::normalize_like_tokenizers(const std::u32string& text) const {
  if (text.empty()) return text;
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> graphemes(icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
  if (U_FAILURE(status)) throw InternalError(std::string("ICU grapheme iterator: ") + u_errorName(status));
  const icu::UnicodeString utf16 = icu::UnicodeString::fromUTF8(unicode::encode_utf8(text));
  graphemes->setText(utf16);
  std::string out;
  std::int32_t start = graphemes->first();
  for (std::int32_t end = graphemes->next(); end != icu::BreakIterator::DONE; start = end, end = graphemes->next()) {
    std::string cluster;
    utf16.tempSubStringBetween(start, end).toUTF8String(cluster);
    if (cluster.size() < 6) {
      const auto matches = prefix_matches(cluster);
      if (!matches.empty()) {
        out += matches.front().second;
        continue;
      }
    }
    std::size_t at = 0;
    while (at < cluster.size()) {
      const std::size_t length = valid_utf8_length(std::string_view(cluster).substr(at));
      const std::string_view character = std::string_view(cluster).substr(at, length == 0 ? 1 : length);
      const auto matches = prefix_matches(character);
      out += matches.empty() ? character : matches.front().second;
      at += character.size();
    }
  }
  return unicode::decode_utf8(out, source_ + ": precompiled_charsmap replacement");
}

}  // namespace claimrag::tokenizer
