#pragma once
// Risk–coverage analysis of a confidence signal: answer the claims in descending order of the
// signal; at coverage i/n the risk is the hallucination rate among the i answered claims.
//
// Claims with equal signals cannot be separated by any threshold, so within a tie group the risk
// is its expectation over the group's orders: answering j of a group of g claims holding h
// hallucinations adds j·h/g hallucinations. This makes every number independent of input order.
// Claims that are not answerable come last (the curve still reaches coverage 1, where they count
// as hallucinations, as their empty rankings hold no relevant document).

#include <vector>

#include "claimrag/gate/sweep.hpp"

namespace claimrag::gate {

struct RiskCoverage {
  std::vector<double> coverage;  ///< i/n for i = 1..n
  std::vector<double> risk;      ///< risk at each coverage
  double aurc = 0;               ///< area under the curve: the mean of `risk`
  double risk_at_30 = 0, risk_at_50 = 0, risk_at_70 = 0;  ///< risk at ceil(c·n) answered claims
  double coverage_at_risk_5 = 0;   ///< largest coverage whose risk is <= 0.05 (0 if none)
  double coverage_at_risk_10 = 0;  ///< largest coverage whose risk is <= 0.10 (0 if none)
};

/// The curve and its summaries; an empty claim list is an InternalError.
RiskCoverage risk_coverage(const std::vector<ClaimOutcome>& claims);

}  // namespace claimrag::gate
