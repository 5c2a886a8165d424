#include "claimrag/verification/rationale_selection.hpp"

#include <algorithm>
#include <numeric>

#include "claimrag/error.hpp"

namespace claimrag::verification {

std::vector<std::size_t> best_sentences(const std::vector<double>& probabilities, std::size_t count) {
  std::vector<std::size_t> order(probabilities.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return probabilities[a] > probabilities[b]; });
  order.resize(std::min(count, order.size()));
  return order;
}

std::vector<std::size_t> select_rationale(const std::vector<double>& probabilities, double tau, std::size_t max_sentences) {
  if (max_sentences == 0) throw UsageError("rationale selection: at most 0 sentences selects nothing");
  std::vector<std::size_t> selected = best_sentences(probabilities, max_sentences);
  std::erase_if(selected, [&](std::size_t s) { return !(probabilities[s] >= tau); });
  return selected;
}

}  // namespace claimrag::verification
