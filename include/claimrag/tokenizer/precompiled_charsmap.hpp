#pragma once
// SentencePiece's precompiled character map: the normalisation rules a SentencePiece model carries
// (nmt_nfkc and the like), as one blob: a little-endian u32 giving the byte size of a Darts-clone
// double-array trie, the trie's 32-bit units, then the replacement strings, each ended by a NUL.
// The trie maps a UTF-8 byte string to the offset of its replacement.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace claimrag::tokenizer {

/// The longest replacement a rule may have, in bytes. SentencePiece's own maps replace a character
/// by at most a few dozen bytes (U+FDFA, 33); the bound keeps one rule from turning a short text
/// into megabytes.
inline constexpr std::size_t kCharsmapLongestReplacement = 256;

class PrecompiledCharsmap {
 public:
  /// Parses `blob` (the decoded bytes). DataError naming `source` when the sizes do not fit or a
  /// replacement is longer than kCharsmapLongestReplacement bytes.
  PrecompiledCharsmap(std::string_view blob, std::string source);

  /// DataError naming the source unless every walk of the trie stays inside it and every rule it
  /// reaches points inside the replacement strings, whatever the text walked: what must hold before
  /// libsentencepiece, which walks the map without checking either, is given a model holding it.
  /// This class's own walks check as they go and need no such call.
  void check_every_walk() const;

  /// Every rule whose key is a prefix of `bytes`, shortest first: (key length, replacement). The
  /// walk stops at a NUL byte, as both the reference's and SentencePiece's searches do.
  [[nodiscard]] std::vector<std::pair<std::size_t, std::string_view>> prefix_matches(std::string_view bytes) const;

  /// SentencePiece's own normaliser walk (normalizer.cc): at each position the longest rule
  /// matching there, else one UTF-8 character copied, else (an invalid byte) U+FFFD for one byte.
  [[nodiscard]] std::string normalize_like_sentencepiece(std::string_view bytes) const;

  /// The tokenizers library's Precompiled normaliser: the text is cut into extended grapheme
  /// clusters; a cluster shorter than 6 bytes with a rule matching its start is replaced whole by
  /// the first (shortest) such rule; any other cluster is rewritten character by character, each
  /// by its first matching rule or kept.
  [[nodiscard]] std::u32string normalize_like_tokenizers(const std::u32string& text) const;

 private:
  [[nodiscard]] std::uint32_t unit(std::size_t index) const;
  [[nodiscard]] std::string_view replacement(std::uint32_t offset) const;

  std::vector<std::uint32_t> trie_;
  std::string replacements_;
  std::string source_;
};

/// The bytes of standard base64 `text` (with or without padding). DataError naming `source` on a
/// character outside the alphabet.
std::string decode_base64(std::string_view text, const std::string& source);

}  // namespace claimrag::tokenizer
