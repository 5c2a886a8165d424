#pragma once
// How the encoded texts become the model's input: the pair template (special tokens around and
// between the texts, with their segment ids) and truncation of the texts to fit a length.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "claimrag/tokenizer/tokenizer.hpp"

namespace claimrag::tokenizer {

/// Which end of a text truncation removes tokens from.
enum class TruncationSide { right, left };

/// How a pair too long for its budget is cut: `fast` is the tokenizers library's longest_first
/// (truncate_longest_first), `slow` the Python tokenizer classes' (truncate_one_at_a_time). With
/// 300 + 400 tokens into 509 they give (254, 255) and (255, 254).
enum class PairTruncation { fast, slow };

/// One part of a template: a text (0: the first, 1: the pair) or special-token ids.
struct TemplatePart {
  std::optional<int> sequence;       ///< which text, when this part is one
  std::vector<std::int32_t> ids;     ///< the special token's ids, otherwise
  std::int32_t type_id = 0;          ///< the segment id of every position of the part
};

/// The single and pair templates. With no parts, the texts are joined as they are (segment ids
/// 0 for the first, 1 for the pair), as when tokenizer.json has no post-processor.
struct PairTemplate {
  std::vector<TemplatePart> single;
  std::vector<TemplatePart> pair;
  /// RobertaProcessing: every segment id 0, whatever the parts say.
  bool all_type_ids_zero = false;

  /// The number of special-token positions the template adds.
  [[nodiscard]] std::size_t added_tokens(bool is_pair) const;
  /// The model input of the encoded (already truncated) texts.
  [[nodiscard]] Encoding apply(const std::vector<std::int32_t>& first,
                               const std::optional<std::vector<std::int32_t>>& second) const;
  /// The model input of the encoded texts cut by `rule` from `side` so that, with the special
  /// tokens, they fit `max_length` (0: no limit); its truncated_tokens counts what was cut.
  /// UsageError when `max_length` leaves no room for the special tokens.
  [[nodiscard]] Encoding fit_and_apply(std::vector<std::int32_t> first, std::optional<std::vector<std::int32_t>> second,
                                       std::size_t max_length, PairTruncation rule, TruncationSide side) const;

  /// `[CLS] A [SEP]` and `[CLS] A [SEP] B [SEP]` with segment ids 0 then 1 (BERT, DeBERTa).
  static PairTemplate bert(std::int32_t cls_id, std::int32_t sep_id);
  /// `<s> A </s>` and `<s> A </s></s> B </s>`, segment ids all 0 (RoBERTa).
  static PairTemplate roberta(std::int32_t cls_id, std::int32_t sep_id);
};

/// The one `rule` names.
std::size_t truncate_pair(PairTruncation rule, std::vector<std::int32_t>& first,
                          std::optional<std::vector<std::int32_t>>& second, std::size_t budget, TruncationSide side);

/// The tokenizers library's longest_first truncation of a text (pair) to `budget` tokens in all:
/// lengths n1 <= n2 become (n1, max(n1, budget - n1)), and when that is still too long,
/// (budget / 2, budget / 2 + budget % 2), the longer text keeping the larger half (the pair when
/// they are equal). Returns the number of tokens removed.
std::size_t truncate_longest_first(std::vector<std::int32_t>& first, std::optional<std::vector<std::int32_t>>& second,
                                   std::size_t budget, TruncationSide side);

/// The Python tokenizers' longest_first truncation (the slow tokenizer classes): one token at a
/// time from the longer text, from the pair when they are equal. Returns the number removed.
std::size_t truncate_one_at_a_time(std::vector<std::int32_t>& first, std::optional<std::vector<std::int32_t>>& second,
                                   std::size_t budget, TruncationSide side);

}  // namespace claimrag::tokenizer
