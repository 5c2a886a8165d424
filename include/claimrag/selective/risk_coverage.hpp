#pragma once
// Risk–coverage analysis of any confidence score, shared by every abstaining system (the gate,
// sufficiency, the abstention comparison): answer items in descending order of confidence; at
// coverage i/n the selective risk is the mean loss of the i answered items.
//
// Ties: items with equal confidence cannot be separated by any threshold, so within a tie group
// the risk is its expectation over the group's orders (answering j of a group of g items with
// total loss h adds j·h/g). Every number is therefore independent of input order.
// Items marked `always_abstains` (e.g. a claim with nothing retrieved) come after all others.
//
// AURC convention: the area under the step curve, (1/n)·Σ_{i=1..n} risk(i/n), i.e. the mean of
// the selective risk over the n coverage steps. FD-Shifts (Jaeger et al., ICLR 2023) integrates
// the same curve by the trapezoid rule between distinct-confidence points; without ties the two
// differ by at most (risk(1/n) − risk(1))/(2n), which vanishes with n.

#include <cstddef>
#include <span>
#include <vector>

namespace claimrag::selective {

/// One scored item.
struct ScoredItem {
  double confidence = 0;         ///< higher = answered earlier
  double loss = 0;               ///< 0/1 error of answering it (any value in [0, 1] works)
  bool always_abstains = false;  ///< ranked after every other item
};

struct RiskCoverage {
  std::vector<double> coverage;  ///< i/n for i = 1..n
  std::vector<double> risk;      ///< selective risk at each coverage
  double aurc = 0;               ///< mean of `risk` (convention above)
  double risk_at_30 = 0, risk_at_50 = 0, risk_at_70 = 0;  ///< risk at ceil(c·n) answered items
  double coverage_at_risk_5 = 0;   ///< largest coverage whose risk is ≤ 0.05 (0 if none)
  double coverage_at_risk_10 = 0;  ///< largest coverage whose risk is ≤ 0.10 (0 if none)
};

/// The curve and its summaries; an empty list is an InternalError.
RiskCoverage risk_coverage(std::span<const ScoredItem> items);

/// Risk after answering ceil(c·n) items (at least one); c in (0, 1].
double risk_at_coverage(const RiskCoverage& curve, double coverage);

/// How many of n items are answered at `coverage`: ⌈coverage·n⌉, allowing 1e-9 for the rounding
/// of the product (0.3·300 is 90.00000000000001, which must give 90), and at least 1. The one rule
/// behind every "at coverage" number: curves, operating points and the gate's coverage thresholds.
std::size_t items_at_coverage(double coverage, std::size_t n);

/// The largest coverage whose risk is ≤ `limit` (0 when none is).
double coverage_at_risk(const RiskCoverage& curve, double limit);

}  // namespace claimrag::selective
