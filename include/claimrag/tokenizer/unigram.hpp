#pragma once
// The Unigram model of SentencePiece as the tokenizers library runs it: a word is cut into the
// pieces whose scores (log probabilities) sum highest (Viterbi over UTF-8 positions). A character
// no piece starts with is the unknown token at the lowest score less 10; consecutive unknown
// characters are fused into one unknown token; with byte_fallback, an unknown run is written as
// its bytes' <0xXX> pieces when the vocabulary holds all of them.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "claimrag/tokenizer/model.hpp"

namespace claimrag::tokenizer {

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
  std::size_t longest_piece_ = 0;  // in bytes
  std::string source_;
};

}  // namespace claimrag::tokenizer
