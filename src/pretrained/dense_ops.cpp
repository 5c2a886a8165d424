#include "claimrag/pretrained/dense_ops.hpp"

#include <cmath>

namespace claimrag::pretrained {

void linear_forward(const nn::Matrix<float>& x, const LinearWeights& layer, nn::Matrix<float>& y) {
  y.resize(x.rows(), layer.weight.rows());
  y.noalias() = x * layer.weight.transpose();
  if (layer.bias.size() != 0) y.rowwise() += layer.bias.row(0);
}

void layer_norm_in_place(nn::Matrix<float>& x, const LayerNormWeights& norm) {
  const auto size = x.cols();
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    auto row = x.row(r);
    // Mean and variance summed in double: the float32 reference agrees to well below 1e-6 either way.
    double sum = 0.0;
    for (Eigen::Index c = 0; c < size; ++c) sum += row(c);
    const double mean = sum / static_cast<double>(size);
    double squares = 0.0;
    for (Eigen::Index c = 0; c < size; ++c) squares += (row(c) - mean) * (row(c) - mean);
    const double variance = squares / static_cast<double>(size);
    const auto inverse = static_cast<float>(1.0 / std::sqrt(variance + static_cast<double>(norm.eps)));
    const auto centre = static_cast<float>(mean);
    for (Eigen::Index c = 0; c < size; ++c) row(c) = (row(c) - centre) * inverse * norm.gain(0, c) + norm.bias(0, c);
  }
}

void softmax_rows_in_place(nn::Matrix<float>& scores) {
  for (Eigen::Index r = 0; r < scores.rows(); ++r) {
    auto row = scores.row(r);
    const float maximum = row.maxCoeff();
    float total = 0.0F;
    for (Eigen::Index c = 0; c < row.size(); ++c) {
      row(c) = std::exp(row(c) - maximum);
      total += row(c);
    }
    row /= total;
  }
}

}  // namespace claimrag::pretrained
