#include "claimrag/pretrained/dense_ops.hpp"

#include <cblas.h>

#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::pretrained {
namespace {

// OpenBLAS would otherwise split each product over its own threads, whose partial sums depend on
// the thread count; callers already keep every core busy with a stack of sequences each. Set once,
// before the first product, for the whole process (nothing else in claimrag calls BLAS).
void hold_blas_to_one_thread() {
  static const bool held = [] {
    openblas_set_num_threads(1);
    return true;
  }();
  (void)held;
}

void require_shapes(bool agree, const char* product) {
  if (!agree) throw InternalError(std::string("pretrained ") + product + ": the operands' shapes do not agree");
}

}  // namespace

void multiply_by_transpose(const ConstRowBlock& a, const ConstRowBlock& b, RowBlock out, float scale, bool accumulate) {
  require_shapes(a.cols() == b.cols() && out.rows() == a.rows() && out.cols() == b.rows(), "multiply_by_transpose");
  if (out.size() == 0) return;
  hold_blas_to_one_thread();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<blasint>(a.rows()), static_cast<blasint>(b.rows()),
              static_cast<blasint>(a.cols()), scale, a.data(), static_cast<blasint>(a.outerStride()), b.data(),
              static_cast<blasint>(b.outerStride()), accumulate ? 1.0F : 0.0F, out.data(), static_cast<blasint>(out.outerStride()));
}

void multiply(const ConstRowBlock& a, const ConstRowBlock& b, RowBlock out) {
  require_shapes(a.cols() == b.rows() && out.rows() == a.rows() && out.cols() == b.cols(), "multiply");
  if (out.size() == 0) return;
  hold_blas_to_one_thread();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(a.rows()), static_cast<blasint>(b.cols()),
              static_cast<blasint>(a.cols()), 1.0F, a.data(), static_cast<blasint>(a.outerStride()), b.data(),
              static_cast<blasint>(b.outerStride()), 0.0F, out.data(), static_cast<blasint>(out.outerStride()));
}

void linear_forward(const nn::Matrix<float>& x, const LinearWeights& layer, nn::Matrix<float>& y) {
  y.resize(x.rows(), layer.weight.rows());
  if (layer.bias.size() == 0) {
    multiply_by_transpose(x, layer.weight, y);
    return;
  }
  // Starting from the bias and accumulating spares a pass over y to clear it and one to add it.
  y.rowwise() = layer.bias.row(0);
  multiply_by_transpose(x, layer.weight, y, 1.0F, true);
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
    auto row = scores.row(r).array();
    // Eigen's vectorised exp: every attention score of every head passes here.
    row = (row - row.maxCoeff()).exp();
    row /= row.sum();
  }
}

}  // namespace claimrag::pretrained
