#include "claimrag/gate/sweep.hpp"

#include <algorithm>
#include <numeric>

namespace claimrag::gate {

std::vector<SweepRow> sweep(const std::vector<ClaimOutcome>& claims, const std::vector<double>& thresholds) {
  // Claims by descending signal with prefix sums: answering "signal >= t" answers a prefix.
  std::vector<std::size_t> order(claims.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return answered_before(claims[a], claims[b]); });
  std::vector<double> signals;
  std::vector<std::size_t> hallucinated(claims.size() + 1, 0), with_f1(claims.size() + 1, 0);
  std::vector<double> f1_sum(claims.size() + 1, 0.0);
  for (std::size_t i = 0; i < order.size(); ++i) {
    const ClaimOutcome& claim = claims[order[i]];
    if (claim.answerable) signals.push_back(claim.signal);
    hallucinated[i + 1] = hallucinated[i] + (claim.hallucinated ? 1 : 0);
    with_f1[i + 1] = with_f1[i] + (claim.evidence_f1 ? 1 : 0);
    f1_sum[i + 1] = f1_sum[i] + claim.evidence_f1.value_or(0.0);
  }
  const double total = static_cast<double>(claims.size());
  std::vector<SweepRow> rows;
  rows.reserve(thresholds.size());
  for (const double threshold : thresholds) {
    // The number of answerable signals >= threshold in a descending array.
    const auto answered = static_cast<std::size_t>(
        std::upper_bound(signals.begin(), signals.end(), threshold, [](double t, double s) { return t > s; }) - signals.begin());
    SweepRow row;
    row.threshold = threshold;
    row.answered = answered;
    row.answer_rate = total > 0 ? static_cast<double>(answered) / total : 0.0;
    row.refusal_rate = total > 0 ? static_cast<double>(claims.size() - answered) / total : 0.0;
    row.hallucination_rate = answered > 0 ? static_cast<double>(hallucinated[answered]) / static_cast<double>(answered) : 0.0;
    row.evidence_f1 = with_f1[answered] > 0 ? f1_sum[answered] / static_cast<double>(with_f1[answered]) : 0.0;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace claimrag::gate
