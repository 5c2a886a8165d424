#pragma once
// The dense encoder's vocabulary: token string -> row of the embedding table.
//
// Decisions the paper leaves open:
// - Built from the texts the caller passes, meant to be every corpus document (title + " " +
//   text) and the training queries: every token training can see has a row, and document
//   tokens no training pair reaches keep their random initial rows (a random projection of the
//   bag of words, which still matches words exactly). On SciFact: 35,905 tokens. (Building it
//   from the documents alone changes nDCG@10 by under 0.01.)
// - Every token seen at least once gets a row; ids follow the tokens' byte-wise lexicographic
//   order, so the vocabulary does not depend on the order of the texts.
// - A token outside the vocabulary (only queries can have them) is dropped at encoding time:
//   it has no trained row, and a shared "unknown" row would pull unrelated queries together.
//   A query with no known token encodes to the zero vector and scores 0 against every document.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/text/term_dictionary.hpp"

namespace claimrag::dense {

class Vocabulary {
 public:
  Vocabulary() = default;
  /// The vocabulary of every token (text::tokenize) of `texts`.
  static Vocabulary build(const std::vector<std::string>& texts);
  /// A vocabulary whose id i is tokens[i], as saved; tokens must be unique and non-empty
  /// (InternalError otherwise).
  static Vocabulary from_tokens(std::vector<std::string> tokens);

  /// The id of `token`, or -1 when it is unknown.
  [[nodiscard]] std::int32_t id(std::string_view token) const;
  /// The ids of the known tokens of `text` (tokenized with text::for_each_token), in order;
  /// unknown tokens are dropped.
  [[nodiscard]] std::vector<std::int32_t> encode(std::string_view text) const;
  /// encode() of each text.
  [[nodiscard]] std::vector<std::vector<std::int32_t>> encode_all(const std::vector<std::string>& texts) const;

  [[nodiscard]] std::size_t size() const { return ids_.size(); }
  [[nodiscard]] const std::vector<std::string>& tokens() const { return ids_.terms(); }
  /// xxh64 (hex) of the tokens in id order, each followed by '\n': two vocabularies with the
  /// same checksum map every token to the same row.
  [[nodiscard]] std::string checksum() const;

 private:
  text::TermDictionary ids_;  ///< token -> id; its terms are the tokens in id order
};

}  // namespace claimrag::dense
