#include "claimrag/tokenizer/tokenizer.hpp"

#include <algorithm>

namespace claimrag::tokenizer {

std::size_t length_to_encode(const Tokenizer& tokenizer, std::size_t requested, std::size_t model_limit) {
  if (requested != 0) return requested;
  return std::min(model_limit, tokenizer.model_max_length().value_or(model_limit));
}

}  // namespace claimrag::tokenizer
