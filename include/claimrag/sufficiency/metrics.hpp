#pragma once
// Answer-level metrics of a sufficiency system on labelled examples.
//  - per-class F1 (Supported, Refuted, Insufficient) and their mean, macro-F1; a class never
//    predicted and never gold has F1 0 (it still counts in the mean, as scikit-learn's
//    zero_division=0 does);
//  - safe-F1 / unsafe-F1: F1 of the binary decision with Safe = answered (for SURE: label
//    Supported and s ≥ τ; for a plain classifier: label Supported) against gold Supported, and
//    the same with Unsafe as the positive class;
//  - risk–coverage of the ranking by a confidence (selective/risk_coverage.hpp), the loss of an
//    example being 1 when its gold is not Supported (answering it would be unsafe);
//  - binary ECE of P(Safe) = P(Supported) (selective/calibration.hpp, 15 bins).

#include <array>
#include <span>
#include <vector>

#include "claimrag/metrics/classification.hpp"
#include "claimrag/selective/risk_coverage.hpp"

namespace claimrag::sufficiency {

/// Per-class F1 (by SufficiencyLabel), macro-F1 and accuracy (metrics/classification.hpp).
using ClassificationScores = metrics::ClassificationScores<3>;

/// Per-class and macro F1; gold and predicted labels in [0, 3), equal non-zero sizes (InternalError otherwise).
ClassificationScores classification_scores(std::span<const int> gold, std::span<const int> predicted);

/// Binary F1 of `predicted` against `gold` for the positive value `positive`.
double binary_f1(std::span<const int> gold, std::span<const int> predicted, int positive);

struct SelectiveScores {
  double safe_f1 = 0, unsafe_f1 = 0;
  selective::RiskCoverage curve;
  double ece = 0;  ///< binary decision ECE of P(Supported)
};

/// `answered` 1/0 per example, `confidence` the ranking score, `p_supported` for the ECE, `gold` labels.
SelectiveScores selective_scores(std::span<const int> gold, std::span<const int> answered, std::span<const double> confidence,
                                 std::span<const double> p_supported);

}  // namespace claimrag::sufficiency
