#pragma once
// Calibration of an abstaining system's safe / unsafe decision and of a K-class model.
//
// Binary ECE on the safe / unsafe decision (SURE-RAG's convention): the decision is Safe when
// P(Safe) ≥ 0.5; its confidence is max(P(Safe), 1 − P(Safe)) and it is correct when it matches
// the gold. ECE = Σ_b (|b| / n)·|accuracy(b) − mean confidence(b)| over `bins` equal-width bins of
// [0, 1] (a confidence of exactly 1 falls in the last bin; confidences lie in [0.5, 1], so with 15
// bins the first seven stay empty); empty bins add nothing.

#include <functional>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace claimrag::selective {

/// The binary ECE above. Sizes must match and be non-empty, bins ≥ 1, probabilities in [0, 1]
/// (InternalError otherwise).
double binary_decision_ece(std::span<const double> p_safe, std::span<const int> safe, int bins = 15);

/// The temperature T > 0 minimising the mean negative log-likelihood of softmax(z / T) (one row
/// of `logits` per item, n×K) against `labels` in [0, K): golden-section search on log T over
/// [1/100, 100] to 1e-10 (the NLL is unimodal in log T). InternalError on empty or mismatched input.
double fit_softmax_temperature(const Eigen::MatrixXd& logits, std::span<const int> labels);

/// The T in [1/100, 100] minimising a function unimodal in log T (a temperature's NLL): golden-
/// section search on log T to 1e-10. Shared by every temperature fit.
double minimize_temperature(const std::function<double(double)>& objective);

/// Row-wise softmax(z / T), computed without overflow.
Eigen::MatrixXd softmax_rows(const Eigen::MatrixXd& logits, double temperature = 1.0);

}  // namespace claimrag::selective
