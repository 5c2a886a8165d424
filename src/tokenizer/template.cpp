#include "claimrag/tokenizer/template.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "claimrag/error.hpp"

namespace claimrag::tokenizer {
namespace {

void keep(std::vector<std::int32_t>& ids, std::size_t length, TruncationSide side) {
  if (ids.size() <= length) return;
  if (side == TruncationSide::right) {
    ids.resize(length);
  } else {
    ids.erase(ids.begin(), ids.end() - static_cast<std::ptrdiff_t>(length));
  }
}

}  // namespace

std::size_t PairTemplate::added_tokens(bool is_pair) const {
  std::size_t count = 0;
  for (const TemplatePart& part : is_pair ? pair : single)
    if (!part.sequence) count += part.ids.size();
  return count;
}

Encoding PairTemplate::apply(const std::vector<std::int32_t>& first,
                             const std::optional<std::vector<std::int32_t>>& second) const {
  Encoding encoding;
  const auto append = [&](const std::vector<std::int32_t>& ids, std::int32_t type_id) {
    encoding.input_ids.insert(encoding.input_ids.end(), ids.begin(), ids.end());
    encoding.token_type_ids.insert(encoding.token_type_ids.end(), ids.size(), all_type_ids_zero ? 0 : type_id);
  };
  const std::vector<TemplatePart>& parts = second ? pair : single;
  if (parts.empty()) {
    append(first, 0);
    if (second) append(*second, 1);
    return encoding;
  }
  for (const TemplatePart& part : parts) {
    if (!part.sequence) {
      append(part.ids, part.type_id);
    } else if (*part.sequence == 0) {
      append(first, part.type_id);
    } else if (second) {
      append(*second, part.type_id);
    }
  }
  return encoding;
}

PairTemplate PairTemplate::bert(std::int32_t cls_id, std::int32_t sep_id) {
  PairTemplate result;
  result.single = {{std::nullopt, {cls_id}, 0}, {0, {}, 0}, {std::nullopt, {sep_id}, 0}};
  result.pair = result.single;
  result.pair.push_back({1, {}, 1});
  result.pair.push_back({std::nullopt, {sep_id}, 1});
  return result;
}

PairTemplate PairTemplate::roberta(std::int32_t cls_id, std::int32_t sep_id) {
  PairTemplate result;
  result.single = {{std::nullopt, {cls_id}, 0}, {0, {}, 0}, {std::nullopt, {sep_id}, 0}};
  result.pair = result.single;
  result.pair.push_back({std::nullopt, {sep_id}, 0});
  result.pair.push_back({1, {}, 0});
  result.pair.push_back({std::nullopt, {sep_id}, 0});
  result.all_type_ids_zero = true;
  return result;
}

std::size_t truncate_longest_first(std::vector<std::int32_t>& first, std::optional<std::vector<std::int32_t>>& second,
                                   std::size_t budget, TruncationSide side) {
  const std::size_t total = first.size() + (second ? second->size() : 0);
  if (total <= budget) return 0;
  if (!second) {
    keep(first, budget, side);
    return total - budget;
  }
  std::size_t n1 = first.size();
  std::size_t n2 = second->size();
  const bool swapped = n1 > n2;
  if (swapped) std::swap(n1, n2);
  n2 = n1 > budget ? n1 : std::max(n1, budget - n1);
  if (n1 + n2 > budget) {
    n1 = budget / 2;
    n2 = n1 + budget % 2;
  }
  if (swapped) std::swap(n1, n2);
  keep(first, n1, side);
  keep(*second, n2, side);
  return total - first.size() - second->size();
}

std::size_t truncate_one_at_a_time(std::vector<std::int32_t>& first, std::optional<std::vector<std::int32_t>>& second,
                                   std::size_t budget, TruncationSide side) {
  const std::size_t total = first.size() + (second ? second->size() : 0);
  if (total <= budget) return 0;
  std::size_t remove = total - budget;
  if (!second) {
    keep(first, budget, side);
    return remove;
  }
  // Equivalent to removing one token at a time from the longer text (the pair on a tie).
  std::size_t n1 = first.size();
  std::size_t n2 = second->size();
  while (remove > 0) {
    if (n1 > n2) {
      --n1;
    } else {
      --n2;
    }
    --remove;
  }
  keep(first, n1, side);
  keep(*second, n2, side);
  return total - n1 - n2;
}

std::size_t truncate_pair(PairTruncation rule, std::vector<std::int32_t>& first,
                          std::optional<std::vector<std::int32_t>>& second, std::size_t budget, TruncationSide side) {
  return rule == PairTruncation::fast ? truncate_longest_first(first, second, budget, side)
                                      : truncate_one_at_a_time(first, second, budget, side);
}

Encoding PairTemplate::fit_and_apply(std::vector<std::int32_t> first, std::optional<std::vector<std::int32_t>> second,
                                     std::size_t max_length, PairTruncation rule, TruncationSide side) const {
  std::size_t truncated = 0;
  if (max_length != 0) {
    const std::size_t added = added_tokens(second.has_value());
    if (max_length < added) {
      throw UsageError("maximum length " + std::to_string(max_length) + " leaves no room for the " +
                       std::to_string(added) + " special tokens of the template");
    }
    truncated = truncate_pair(rule, first, second, max_length - added, side);
  }
  Encoding encoding = apply(first, second);
  encoding.truncated_tokens = truncated;
  return encoding;
}

}  // namespace claimrag::tokenizer
