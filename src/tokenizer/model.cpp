#include "claimrag/tokenizer/model.hpp"

#include <algorithm>

namespace claimrag::tokenizer {

std::optional<std::int32_t> SubwordModel::token_to_id(std::string_view token) const {
  const auto found = vocabulary_.find(std::string(token));
  if (found == vocabulary_.end()) return std::nullopt;
  return found->second;
}

std::size_t SubwordModel::size() const {
  std::int32_t largest = -1;
  for (const auto& [token, id] : vocabulary_) largest = std::max(largest, id);
  return static_cast<std::size_t>(largest + 1);
}

}  // namespace claimrag::tokenizer
