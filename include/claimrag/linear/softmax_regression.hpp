#pragma once
// Multinomial (softmax) logistic regression with an L2 penalty, fitted by Newton's method.
//
// With K classes, rows x_i (d features), class weights c_k and S = Σ_i c_{y_i}, it minimises
//   f(W, b) = λ/2·Σ_k ‖w_k‖² + λ_b/2·Σ_k b_k² + (1/S)·Σ_i c_{y_i}·(−ln softmax(W x_i + b)_{y_i})
// Dividing by S keeps λ's meaning independent of the number of rows. The small λ_b makes f
// strictly convex (softmax is unchanged by adding one constant to every b_k), so the optimum is
// unique and Newton's method with an Armijo line search reaches it in a few steps.
// The parameter vector θ lays out, class after class, (w_k (d entries), b_k): θ[k·(d+1) + j].
//
// Sits in module `linear`, after `rerank` and before `verification` in the module order: it knows
// only Eigen, so the verifier and later the sufficiency aggregator can both use it.

#include <Eigen/Core>
#include <span>
#include <vector>

namespace claimrag::linear {

/// n×d design matrix, one example per row.
using RowMatrixXd = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct SoftmaxRegressionOptions {
  double l2 = 1e-2;                  ///< λ, > 0
  double bias_l2 = 1e-6;             ///< λ_b, > 0
  std::vector<double> class_weights; ///< c_k per class (K entries, > 0); empty = all 1
  double tolerance = 1e-9;           ///< stop when ‖∇f‖₂ ≤ tolerance·max(1, ‖∇f(0)‖₂)
  int max_iterations = 100;          ///< Newton steps, ≥ 1
};

struct SoftmaxRegressionModel {
  Eigen::MatrixXd weights;  ///< K×d, row k = w_k
  Eigen::VectorXd bias;     ///< K
  int iterations = 0;
  bool converged = false;
  double objective = 0.0;

  [[nodiscard]] Eigen::Index classes() const { return weights.rows(); }
  [[nodiscard]] Eigen::Index features() const { return weights.cols(); }
  /// Class probabilities of every row of X (n×d): an n×K matrix whose rows sum to 1.
  [[nodiscard]] Eigen::MatrixXd predict_probabilities(const RowMatrixXd& X) const;
  /// θ in the layout above.
  [[nodiscard]] Eigen::VectorXd parameters() const;
  /// Sets weights and bias from θ for K classes and d features; θ has K·(d+1) entries.
  void set_parameters(const Eigen::VectorXd& theta, Eigen::Index classes, Eigen::Index features);
};

/// Fits on X (n×d, n ≥ 1, d ≥ 1, finite) with labels in [0, classes); classes ≥ 2. Throws
/// UsageError on bad shapes, labels or options, DataError on a non-finite feature. A class
/// absent from the labels is allowed (its bias goes towards −∞, held back by λ_b).
SoftmaxRegressionModel fit_softmax_regression(const RowMatrixXd& X, std::span<const int> labels, int classes,
                                              const SoftmaxRegressionOptions& options = {});

/// f at `model` on (X, labels); same preconditions as fit_softmax_regression.
double softmax_objective(const RowMatrixXd& X, std::span<const int> labels, const SoftmaxRegressionModel& model,
                         const SoftmaxRegressionOptions& options = {});

/// ∇f at `model`, K·(d+1) entries in θ's layout.
Eigen::VectorXd softmax_gradient(const RowMatrixXd& X, std::span<const int> labels, const SoftmaxRegressionModel& model,
                                 const SoftmaxRegressionOptions& options = {});

}  // namespace claimrag::linear
