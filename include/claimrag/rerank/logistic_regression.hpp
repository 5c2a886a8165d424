#pragma once
// Binary L2-regularised logistic regression trained to the optimum that scikit-learn's
//   LogisticRegression(solver="liblinear", class_weight="balanced", C=1, max_iter=200)
// approximates. liblinear appends a constant feature s (intercept_scaling, 1 by default) to
// every row and penalises its weight b like any other, so with y_i = ±1, per-sample costs
// C_i = C · class_weight[y_i] and v = (w, b), it minimises
//   f(v) = ½·(wᵀw + b²) + Σ_i C_i · ln(1 + exp(−y_i·(wᵀx_i + s·b)))
// and reports intercept = s·b. f is 1-strongly convex (its Hessian is I + Σ_i C_i σ_i(1−σ_i)
// x̃_i x̃_iᵀ ⪰ I), so the optimum v* is unique and any v satisfies ‖v − v*‖₂ ≤ ‖∇f(v)‖₂.
//
// Solved here by Newton's method with a backtracking (Armijo) line search, in double, until
// ‖∇f(v)‖₂ ≤ tolerance·‖∇f(0)‖₂ (tolerance 1e-10 by default).
//
// How close liblinear gets: its trust-region Newton (TRON) stops at the first iterate with
// ‖∇f(v)‖₂ ≤ tol·max(min(n₊, n₋), 1)/n·‖∇f(0)‖₂ (tol = 1e-4; n₊, n₋ the class counts), or after
// max_iter = 200 iterations. By strong convexity its answer is then within that same bound of
// v* in Euclidean norm: for the reranker's ~81,000 rows with ~1% positives, ≤ ~1e-6·‖∇f(0)‖₂.
// In practice it stops far closer. On the benchmark's synthetic set (80,900 × 5, 786
// positives, raw features; tests/bench/bench_tfidf_logreg.cpp) scikit-learn 1.2.1 stops after
// 13 iterations with weights within 3.3e-5 relative of v* (‖v − v*‖₂ = 1.2e-3 against a
// bound of 0.15) and probabilities within 2.4e-5; with tol=1e-12 it agrees with v* to 6e-10
// relative. We match v* itself, not liblinear's stopping point.
//
// Features are used raw: scikit-learn's LogisticRegression standardises nothing by itself.

#include <Eigen/Core>
#include <array>
#include <span>

namespace claimrag::rerank {

/// n×d design matrix, one example per row.
using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// How per-class weights multiply C.
enum class ClassWeight {
  none,      ///< every class 1
  balanced,  ///< n / (2 · count of the class), scikit-learn's "balanced"
};

/// Training options; the defaults are the paper's reranker.
struct LogisticRegressionOptions {
  double C = 1.0;                                   ///< inverse regularisation strength, > 0
  ClassWeight class_weight = ClassWeight::balanced;
  bool fit_intercept = true;
  double intercept_scaling = 1.0;  ///< s, the appended constant feature, > 0
  double tolerance = 1e-10;        ///< stop when ‖∇f(v)‖₂ ≤ tolerance·‖∇f(0)‖₂; ≥ 0
  int max_iterations = 200;        ///< Newton iterations, ≥ 1
};

/// A fitted model and how its training went.
struct LogisticRegressionModel {
  Eigen::VectorXd weights;  ///< d
  double intercept = 0.0;   ///< s·b (0 without an intercept)
  double intercept_scaling = 1.0;
  bool fit_intercept = true;
  int iterations = 0;       ///< Newton steps taken
  bool converged = false;   ///< the gradient criterion was met within max_iterations
  double objective = 0.0;   ///< f at the returned point
  double gradient_norm = 0.0;          ///< ‖∇f‖₂ at the returned point
  double initial_gradient_norm = 0.0;  ///< ‖∇f(0)‖₂

  /// wᵀx + intercept. Precondition: x has d entries.
  [[nodiscard]] double decision_function(const Eigen::Ref<const Eigen::VectorXd>& x) const;
  /// P(label 1 | x) = σ(decision_function(x)). Precondition: x has d entries.
  [[nodiscard]] double predict_probability(const Eigen::Ref<const Eigen::VectorXd>& x) const;
  /// predict_probability of every row of X (n×d), as an n-vector.
  [[nodiscard]] Eigen::VectorXd predict_probabilities(const RowMatrixXd& X) const;
};

/// {weight of label 0, weight of label 1}. Throws UsageError when a label is not 0 or 1, or
/// when balanced weights are asked for and a class is absent.
std::array<double, 2> class_weights(std::span<const int> labels, ClassWeight class_weight);

/// Fits on X (n×d, n ≥ 1, d ≥ 1, finite) with labels (n entries, each 0 or 1, both present).
/// Throws UsageError on bad shapes, labels or options, DataError on a non-finite feature.
/// Does not throw when max_iterations runs out: it logs a warning and returns converged=false.
LogisticRegressionModel fit_logistic_regression(const RowMatrixXd& X, std::span<const int> labels,
                                                const LogisticRegressionOptions& options = {});

/// f at `model`'s (weights, intercept / s) on (X, labels), with C_i from `options`; same
/// preconditions as fit_logistic_regression. Exposed so that optimality can be checked.
double logistic_objective(const RowMatrixXd& X, std::span<const int> labels,
                          const LogisticRegressionModel& model,
                          const LogisticRegressionOptions& options = {});

/// ∇f at `model`, a (d+1)-vector (d without an intercept): ∂f/∂w then ∂f/∂b.
Eigen::VectorXd logistic_gradient(const RowMatrixXd& X, std::span<const int> labels,
                                  const LogisticRegressionModel& model,
                                  const LogisticRegressionOptions& options = {});

}  // namespace claimrag::rerank
