#include "claimrag/nn/softmax_cross_entropy.hpp"

#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::nn {

template <typename Scalar>
double softmax_cross_entropy_forward(const Matrix<Scalar>& logits,
                                     const std::vector<std::int32_t>& targets,
                                     const std::vector<double>& weights,
                                     SoftmaxCrossEntropyCache<Scalar>& cache) {
  const Eigen::Index rows = logits.rows();
  if (static_cast<Eigen::Index>(targets.size()) != rows ||
      (!weights.empty() && static_cast<Eigen::Index>(weights.size()) != rows)) {
    throw InternalError("softmax_cross_entropy_forward: targets or weights do not match the logits");
  }
  cache.probabilities.resize(rows, logits.cols());
  cache.targets = targets;
  cache.weights = weights;
  cache.weight_sum = 0;
  double loss = 0;
  for (Eigen::Index r = 0; r < rows; ++r) {
    const std::int32_t target = targets[static_cast<std::size_t>(r)];
    if (target < 0 || target >= logits.cols()) throw InternalError("softmax target out of range");
    const Scalar shift = logits.row(r).maxCoeff();
    auto exponentials = (logits.row(r).array() - shift).exp();
    const Scalar normaliser = exponentials.sum();
    cache.probabilities.row(r) = exponentials / normaliser;
    const double weight = weights.empty() ? 1.0 : weights[static_cast<std::size_t>(r)];
    const double log_probability =
        static_cast<double>(logits(r, target) - shift) - std::log(static_cast<double>(normaliser));
    loss -= weight * log_probability;
    cache.weight_sum += weight;
  }
  return cache.weight_sum > 0 ? loss / cache.weight_sum : 0.0;
}

template <typename Scalar>
void softmax_cross_entropy_backward(const SoftmaxCrossEntropyCache<Scalar>& cache, Scalar dloss,
                                    Matrix<Scalar>& dlogits) {
  if (cache.weight_sum <= 0) return;
  for (Eigen::Index r = 0; r < cache.probabilities.rows(); ++r) {
    const std::size_t row = static_cast<std::size_t>(r);
    const double weight = cache.weights.empty() ? 1.0 : cache.weights[row];
    const auto scale = static_cast<Scalar>(static_cast<double>(dloss) * weight / cache.weight_sum);
    dlogits.row(r) += scale * cache.probabilities.row(r);
    dlogits(r, cache.targets[row]) -= scale;
  }
}

template double softmax_cross_entropy_forward<float>(const Matrix<float>&,
                                                     const std::vector<std::int32_t>&,
                                                     const std::vector<double>&,
                                                     SoftmaxCrossEntropyCache<float>&);
template double softmax_cross_entropy_forward<double>(const Matrix<double>&,
                                                      const std::vector<std::int32_t>&,
                                                      const std::vector<double>&,
                                                      SoftmaxCrossEntropyCache<double>&);
template void softmax_cross_entropy_backward<float>(const SoftmaxCrossEntropyCache<float>&, float,
                                                    Matrix<float>&);
template void softmax_cross_entropy_backward<double>(const SoftmaxCrossEntropyCache<double>&,
                                                     double, Matrix<double>&);

}  // namespace claimrag::nn
