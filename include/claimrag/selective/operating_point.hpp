#pragma once
// Operating points of a confidence score: the rule "answer an item when its confidence is at least
// t" (an item marked always_abstains is never answered), and the choice of t on one set of items
// (the training claims) to be applied to another (the test claims), so that no threshold is
// chosen on the data it is scored on.

#include <cstddef>
#include <span>

#include "claimrag/selective/risk_coverage.hpp"

namespace claimrag::selective {

struct OperatingPoint {
  double threshold = 0;      ///< t; +infinity answers nothing
  std::size_t answered = 0;  ///< items with confidence ≥ t
  double coverage = 0;       ///< answered / all items
  double risk = 0;           ///< mean loss of the answered items (0 when none is answered)
};

/// The rule at `threshold` on `items` (which may be empty: coverage and risk 0).
OperatingPoint operating_point(std::span<const ScoredItem> items, double threshold);

/// The t giving the largest coverage whose risk on `items` is ≤ `limit`: the smallest confidence
/// value among the answerable items at which the rule's risk is ≤ limit; +infinity when there is
/// none (answer nothing). Items sharing a confidence are answered together, so the risk is exact.
double threshold_for_risk(std::span<const ScoredItem> items, double limit);

/// The largest t whose rule answers at least ceil(coverage·n) of the n items (ties may add more);
/// the smallest answerable confidence when fewer items are answerable; +infinity when none is.
/// `coverage` in (0, 1] (UsageError otherwise).
double threshold_for_coverage(std::span<const ScoredItem> items, double coverage);

}  // namespace claimrag::selective
