#include "claimrag/selective/operating_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "claimrag/error.hpp"

namespace claimrag::selective {
namespace {

constexpr double kNothing = std::numeric_limits<double>::infinity();

/// The answerable items, most confident first.
std::vector<const ScoredItem*> answerable_by_confidence(std::span<const ScoredItem> items) {
  std::vector<const ScoredItem*> sorted;
  for (const auto& item : items) {
    if (!item.always_abstains) sorted.push_back(&item);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ScoredItem* a, const ScoredItem* b) { return a->confidence > b->confidence; });
  return sorted;
}

}  // namespace

OperatingPoint operating_point(std::span<const ScoredItem> items, double threshold) {
  OperatingPoint point;
  point.threshold = threshold;
  double loss = 0;
  for (const auto& item : items) {
    if (item.always_abstains || !(item.confidence >= threshold)) continue;
    ++point.answered;
    loss += item.loss;
  }
  if (!items.empty()) point.coverage = static_cast<double>(point.answered) / static_cast<double>(items.size());
  if (point.answered > 0) point.risk = loss / static_cast<double>(point.answered);
  return point;
}

double threshold_for_risk(std::span<const ScoredItem> items, double limit) {
  const auto sorted = answerable_by_confidence(items);
  double chosen = kNothing;
  double loss = 0;
  for (std::size_t start = 0; start < sorted.size();) {
    std::size_t end = start;
    while (end < sorted.size() && sorted[end]->confidence == sorted[start]->confidence) loss += sorted[end++]->loss;
    // A tie group is answered whole: the risk after it is exact, never an expectation.
    if (loss / static_cast<double>(end) <= limit + 1e-12) chosen = sorted[start]->confidence;
    start = end;
  }
  return chosen;
}

double threshold_for_coverage(std::span<const ScoredItem> items, double coverage) {
  if (!(coverage > 0 && coverage <= 1)) throw UsageError("threshold_for_coverage: the coverage must lie in (0, 1]");
  const auto sorted = answerable_by_confidence(items);
  if (sorted.empty()) return kNothing;
  return sorted[std::min(items_at_coverage(coverage, items.size()), sorted.size()) - 1]->confidence;
}

}  // namespace claimrag::selective
