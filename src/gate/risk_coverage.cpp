#include "claimrag/gate/risk_coverage.hpp"

#include "claimrag/error.hpp"

namespace claimrag::gate {

RiskCoverage risk_coverage(const std::vector<ClaimOutcome>& claims) {
  if (claims.empty()) throw InternalError("risk_coverage: no claims");
  std::vector<selective::ScoredItem> items;
  items.reserve(claims.size());
  for (const auto& claim : claims) items.push_back({claim.signal, claim.hallucinated ? 1.0 : 0.0, !claim.answerable});
  return selective::risk_coverage(items);
}

}  // namespace claimrag::gate
