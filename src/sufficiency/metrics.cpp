#include "claimrag/sufficiency/metrics.hpp"

#include "claimrag/error.hpp"
#include "claimrag/selective/calibration.hpp"

namespace claimrag::sufficiency {

double binary_f1(std::span<const int> gold, std::span<const int> predicted, int positive) {
  if (gold.size() != predicted.size()) throw InternalError("binary_f1: sizes differ");
  double tp = 0, fp = 0, fn = 0;
  for (std::size_t i = 0; i < gold.size(); ++i) {
    const bool g = gold[i] == positive, p = predicted[i] == positive;
    tp += g && p ? 1 : 0;
    fp += !g && p ? 1 : 0;
    fn += g && !p ? 1 : 0;
  }
  return tp == 0 ? 0.0 : 2 * tp / (2 * tp + fp + fn);
}

ClassificationScores classification_scores(std::span<const int> gold, std::span<const int> predicted) {
  return metrics::classification_scores<3>(gold, predicted);
}

SelectiveScores selective_scores(std::span<const int> gold, std::span<const int> answered, std::span<const double> confidence,
                                 std::span<const double> p_supported) {
  const std::size_t n = gold.size();
  if (n == 0 || answered.size() != n || confidence.size() != n || p_supported.size() != n) {
    throw InternalError("selective_scores: sizes differ or are zero");
  }
  std::vector<int> safe(n);
  std::vector<selective::ScoredItem> items(n);
  for (std::size_t i = 0; i < n; ++i) {
    safe[i] = gold[i] == 0 ? 1 : 0;
    items[i] = {confidence[i], safe[i] ? 0.0 : 1.0, false};
  }
  SelectiveScores scores;
  scores.safe_f1 = binary_f1(safe, answered, 1);
  scores.unsafe_f1 = binary_f1(safe, answered, 0);
  scores.curve = selective::risk_coverage(items);
  scores.ece = selective::binary_decision_ece(p_supported, safe, 15);
  return scores;
}

}  // namespace claimrag::sufficiency
