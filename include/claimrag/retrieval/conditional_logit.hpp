#pragma once
// A listwise linear ranker: the conditional logit (McFadden 1974), i.e. softmax cross-entropy over
// each claim's candidate list. With groups g (a relevant candidate p_g and the claim's
// non-relevant candidates N_g; a claim with two relevant abstracts gives two groups), rows x_i
// and scores s_i = wᵀx_i, it minimises
//   f(w) = λ/2·‖w‖² + (1/G)·Σ_g ( −s_{p_g} + ln Σ_{i ∈ {p_g} ∪ N_g} exp(s_i) )
// which rewards putting the relevant abstract above the others of its own claim — what nDCG
// measures — where a pointwise classifier also spends its capacity on separating claims from each
// other. f is convex (its Hessian is λI + (1/G)·Σ_g Cov_{softmax}(x)), λ > 0 makes the optimum
// unique; Newton's method with an Armijo line search, in double, finds it (to a Newton decrement
// of 1e-12 by default).
#include <cstddef>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "claimrag/rerank/logistic_regression.hpp"

namespace claimrag::retrieval {

/// One claim's candidates: rows of `features` (n×d) and which of them are relevant.
struct CandidateGroup {
  rerank::RowMatrixXd features;
  std::vector<int> labels;  ///< n entries, 0 or 1
};

struct ConditionalLogitOptions {
  double l2 = 1e-3;          ///< λ, > 0
  double tolerance = 1e-8;   ///< stop when ‖∇f‖₂ ≤ tolerance
  double decrement = 1e-12;  ///< or after a step whose Newton decrement −∇fᵀΔ was ≤ this
  int max_iterations = 100;  ///< Newton steps, ≥ 1
};

struct ConditionalLogitModel {
  Eigen::VectorXd weights;  ///< d
  int iterations = 0;
  bool converged = false;
  double objective = 0;
};

/// Fits w; claims without a relevant or without a non-relevant candidate add no group. UsageError
/// on mismatched shapes, labels other than 0/1, λ ≤ 0, or no group at all.
ConditionalLogitModel fit_conditional_logit(std::span<const CandidateGroup> claims, const ConditionalLogitOptions& options);

/// f at `weights`; exposed so that tests can check the optimum.
double conditional_logit_objective(std::span<const CandidateGroup> claims, const Eigen::VectorXd& weights, double l2);

/// ∇f at `weights`.
Eigen::VectorXd conditional_logit_gradient(std::span<const CandidateGroup> claims, const Eigen::VectorXd& weights, double l2);

}  // namespace claimrag::retrieval
