#pragma once
// Byte-pair encoding as RoBERTa and GPT-2 use it: a word starts as its characters (in the
// byte-level alphabet), and the adjacent pair with the best (lowest) merge rank is merged until no
// listed pair is left; ties go to the leftmost pair.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "claimrag/tokenizer/model.hpp"

namespace claimrag::tokenizer {

struct BpeOptions {
  std::optional<std::string> unk_token;  ///< characters outside the vocabulary become it (dropped when absent)
  bool fuse_unk = false;                 ///< consecutive unknown characters become one unknown token
  std::string continuing_subword_prefix; ///< written before every symbol but a word's first
  std::string end_of_word_suffix;        ///< written after a word's last symbol
  bool ignore_merges = false;            ///< a word the vocabulary holds whole is that token, unmerged
};

class Bpe final : public SubwordModel {
 public:
  /// `merges` in rank order, each a pair of symbols. DataError naming `source` when a merge names a
  /// symbol, or makes a token, that the vocabulary lacks.
  Bpe(Vocabulary vocabulary, const std::vector<std::pair<std::string, std::string>>& merges, BpeOptions options,
      const std::string& source);
  void tokenize(const std::u32string& word, std::vector<std::int32_t>& ids) const override;
  [[nodiscard]] std::string name() const override { return "BPE"; }

 private:
  struct Merge {
    std::size_t rank;
    std::int32_t merged_id;
  };
  /// Applies the merges to a word's symbols (see above), in place.
  void merge_all(std::vector<std::int32_t>& ids) const;

  BpeOptions options_;
  std::map<std::pair<std::int32_t, std::int32_t>, Merge> merges_;
  std::optional<std::int32_t> unk_id_;
};

}  // namespace claimrag::tokenizer
