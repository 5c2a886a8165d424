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
#include "claimrag/selective/risk_coverage.hpp"

namespace claimrag::gate {

/// The shared curve (selective/risk_coverage.hpp): the gate ranks claims by signal, a
/// hallucination is a loss of 1, and a claim that is not answerable always abstains.
using RiskCoverage = selective::RiskCoverage;

/// The curve and its summaries; an empty claim list is an InternalError.
RiskCoverage risk_coverage(const std::vector<ClaimOutcome>& claims);

}  // namespace claimrag::gate
