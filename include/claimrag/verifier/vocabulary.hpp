#pragma once
// The verifier's vocabulary: token strings to ids, with four reserved ids.
//
// Built from the training texts: a token becomes a word when it occurs at least `min_count`
// times. The default 2 sends every token seen once to [UNK] during training, so the [UNK]
// embedding learns what an unseen word looks like instead of staying at its random start.
// Words are numbered by decreasing count, ties by byte order, so the ids do not depend on the
// order of the texts. Reserved entries never come from text: a text token "[CLS]" is an
// ordinary word, not the marker.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace claimrag::verifier {

struct VocabularyOptions {
  std::size_t min_count = 2;  ///< occurrences a token needs to become a word (≥ 1)
  std::size_t max_words = 0;  ///< keep at most this many words, the most frequent; 0 = no limit
};

class Vocabulary {
 public:
  static constexpr std::int32_t pad_id = 0;
  static constexpr std::int32_t unknown_id = 1;
  static constexpr std::int32_t cls_id = 2;
  static constexpr std::int32_t sep_id = 3;
  static constexpr std::int32_t reserved_count = 4;

  /// An empty vocabulary: the reserved entries only.
  Vocabulary() : Vocabulary(std::vector<std::string>{}) {}
  /// The vocabulary whose words, in id order from `reserved_count`, are `words` (distinct).
  explicit Vocabulary(std::vector<std::string> words);

  /// Counts every token occurrence of `texts` and keeps the words as the options say.
  static Vocabulary build(const std::vector<std::vector<std::string>>& texts, const VocabularyOptions& options);

  /// The id of `token`, or unknown_id.
  [[nodiscard]] std::int32_t id(std::string_view token) const;
  /// The ids of `tokens`, in order.
  [[nodiscard]] std::vector<std::int32_t> encode(const std::vector<std::string>& tokens) const;
  /// The token of `id` ("[PAD]", "[UNK]", "[CLS]", "[SEP]" for the reserved ones);
  /// precondition 0 ≤ id < size().
  [[nodiscard]] const std::string& token(std::int32_t id) const;
  /// Reserved entries plus words.
  [[nodiscard]] std::size_t size() const { return tokens_.size(); }

 private:
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, std::int32_t> ids_;
};

}  // namespace claimrag::verifier
