#include "claimrag/gate/risk_coverage.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::gate {

RiskCoverage risk_coverage(const std::vector<ClaimOutcome>& claims) {
  if (claims.empty()) throw InternalError("risk_coverage: no claims");
  std::vector<const ClaimOutcome*> sorted;
  for (const auto& claim : claims) sorted.push_back(&claim);
  std::stable_sort(sorted.begin(), sorted.end(), [](const ClaimOutcome* a, const ClaimOutcome* b) { return answered_before(*a, *b); });
  const std::size_t n = sorted.size();
  RiskCoverage curve;
  double hallucinated_before = 0;
  for (std::size_t start = 0; start < n;) {
    std::size_t end = start;
    double group_hallucinated = 0;
    while (end < n && sorted[end]->signal == sorted[start]->signal && sorted[end]->answerable == sorted[start]->answerable) group_hallucinated += sorted[end++]->hallucinated ? 1 : 0;
    const double group = static_cast<double>(end - start);
    for (std::size_t i = start; i < end; ++i) {
      const double answered = static_cast<double>(i + 1);
      const double expected = hallucinated_before + static_cast<double>(i + 1 - start) * group_hallucinated / group;
      curve.coverage.push_back(answered / static_cast<double>(n));
      curve.risk.push_back(expected / answered);
    }
    hallucinated_before += group_hallucinated;
    start = end;
  }
  double sum = 0;
  for (const double risk : curve.risk) sum += risk;
  curve.aurc = sum / static_cast<double>(n);
  const auto risk_at = [&](double coverage) {
    const auto answered = static_cast<std::size_t>(std::ceil(coverage * static_cast<double>(n) - 1e-9));
    return curve.risk[std::max<std::size_t>(answered, 1) - 1];
  };
  curve.risk_at_30 = risk_at(0.3);
  curve.risk_at_50 = risk_at(0.5);
  curve.risk_at_70 = risk_at(0.7);
  const auto coverage_at = [&](double limit) {
    double best = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (curve.risk[i] <= limit + 1e-12) best = curve.coverage[i];
    }
    return best;
  };
  curve.coverage_at_risk_5 = coverage_at(0.05);
  curve.coverage_at_risk_10 = coverage_at(0.10);
  return curve;
}

}  // namespace claimrag::gate
