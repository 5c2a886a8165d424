#include "claimrag/selective/risk_coverage.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::selective {
namespace {

bool answered_before(const ScoredItem& a, const ScoredItem& b) {
  if (a.always_abstains != b.always_abstains) return b.always_abstains;
  return a.confidence > b.confidence;
}

bool same_group(const ScoredItem& a, const ScoredItem& b) {
  return a.confidence == b.confidence && a.always_abstains == b.always_abstains;
}

}  // namespace

std::size_t items_at_coverage(double coverage, std::size_t n) {
  return std::max<std::size_t>(static_cast<std::size_t>(std::ceil(coverage * static_cast<double>(n) - 1e-9)), 1);
}

double risk_at_coverage(const RiskCoverage& curve, double coverage) {
  if (curve.risk.empty()) throw InternalError("risk_at_coverage: empty curve");
  return curve.risk[std::min(items_at_coverage(coverage, curve.risk.size()), curve.risk.size()) - 1];
}

double coverage_at_risk(const RiskCoverage& curve, double limit) {
  double best = 0;
  for (std::size_t i = 0; i < curve.risk.size(); ++i) {
    if (curve.risk[i] <= limit + 1e-12) best = curve.coverage[i];
  }
  return best;
}

RiskCoverage risk_coverage(std::span<const ScoredItem> items) {
  if (items.empty()) throw InternalError("risk_coverage: no items");
  std::vector<const ScoredItem*> sorted;
  sorted.reserve(items.size());
  for (const auto& item : items) sorted.push_back(&item);
  std::stable_sort(sorted.begin(), sorted.end(), [](const ScoredItem* a, const ScoredItem* b) { return answered_before(*a, *b); });
  const std::size_t n = sorted.size();
  RiskCoverage curve;
  curve.coverage.reserve(n);
  curve.risk.reserve(n);
  double loss_before = 0;
  for (std::size_t start = 0; start < n;) {
    std::size_t end = start;
    double group_loss = 0;
    while (end < n && same_group(*sorted[end], *sorted[start])) group_loss += sorted[end++]->loss;
    const double group = static_cast<double>(end - start);
    for (std::size_t i = start; i < end; ++i) {
      const double answered = static_cast<double>(i + 1);
      const double expected = loss_before + static_cast<double>(i + 1 - start) * group_loss / group;
      curve.coverage.push_back(answered / static_cast<double>(n));
      curve.risk.push_back(expected / answered);
    }
    loss_before += group_loss;
    start = end;
  }
  double sum = 0;
  for (const double risk : curve.risk) sum += risk;
  curve.aurc = sum / static_cast<double>(n);
  curve.risk_at_30 = risk_at_coverage(curve, 0.3);
  curve.risk_at_50 = risk_at_coverage(curve, 0.5);
  curve.risk_at_70 = risk_at_coverage(curve, 0.7);
  curve.coverage_at_risk_5 = coverage_at_risk(curve, 0.05);
  curve.coverage_at_risk_10 = coverage_at_risk(curve, 0.10);
  return curve;
}

}  // namespace claimrag::selective
