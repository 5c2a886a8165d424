#pragma once
// The Unigram model of SentencePiece as the tokenizers library runs it: a word is cut into the
// pieces whose scores (log probabilities) sum highest (Viterbi over UTF-8 positions). A character
// no piece starts with is the unknown token at the lowest score less 10; consecutive unknown
// characters are fused into one unknown token; pieces longer than kUnigramLongestPiece bytes are
// never cut out of a text; with byte_fallback, an unknown run is written as
// its bytes' <0xXX> pieces when the vocabulary holds all of them.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "claimrag/tokenizer/model.hpp"
#include "claimrag/tokenizer/prefix_trie.hpp"

namespace claimrag::tokenizer {

/// The longest piece, in bytes, that segmentation cuts out of a text: a piece longer than this is
/// never matched. The reference's trainers write pieces of at most 16 characters (64 bytes); the
/// bound keeps a vocabulary with a huge piece from making segmentation quadratic in the word.
inline constexpr std::size_t kUnigramLongestPiece = 256;

class Unigram final : public SubwordModel {
 public:
  /// `pieces` in id order with their scores. DataError naming `source` when the list is empty or
  /// `unk_id` lies outside it.
  Unigram(std::vector<std::pair<std::string, double>> pieces, std::optional<std::int32_t> unk_id, bool byte_fallback,
          const std::string& source);
  void tokenize(const std::u32string& word, std::vector<std::int32_t>& ids) const override;
  [[nodiscard]] std::string name() const override { return "Unigram"; }

  /// The best segmentation of `text` (UTF-8) as strings, unknown runs fused.
  [[nodiscard]] std::vector<std::string> segment(const std::string& text) const;

 private:
  std::vector<double> scores_;
  std::optional<std::int32_t> unk_id_;
  bool byte_fallback_;
  double unk_score_ = 0.0;
  PrefixTrie<char> pieces_;  // the vocabulary by bytes, for the lattice
  std::string source_;
};

}  // namespace claimrag::tokenizer
