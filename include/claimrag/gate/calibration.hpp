#pragma once
// Calibration of a binary probability: temperature scaling of logits and the expected
// calibration error (ECE).

#include <vector>

namespace claimrag::gate {

/// The temperature T > 0 minimising the mean negative log-likelihood of σ(z / T) against
/// `labels` (0/1), found by golden-section search on log T over [1/100, 100] to 1e-10. Sizes
/// must match and be non-empty (InternalError otherwise).
double fit_temperature(const std::vector<double>& logits, const std::vector<int>& labels);

/// Σ over `bins` equal-width probability bins of (|bin| / n) · |mean label − mean probability|;
/// a probability of exactly 1 falls in the last bin. Empty bins add nothing.
double expected_calibration_error(const std::vector<double>& probabilities, const std::vector<int>& labels, int bins = 10);

/// σ(z) computed without overflow.
double sigmoid(double z);

}  // namespace claimrag::gate
