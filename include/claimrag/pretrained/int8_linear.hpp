#pragma once
// A linear layer with int8 weights, for `--precision int8`: y ≈ x Wᵀ + b at a quarter of the
// float32 weight's memory and with integer dot products (VNNI where the CPU has it).
//
// Weights: one scale per output (symmetric, max |W[j, ·]| / 127), rounded to the nearest integer.
// Activations: one scale per row (max |x[r, ·]| / 127), rounded the same way, computed by the same
// scalar code on every CPU. The dot products of the integers are exact in int32 (|x·w| ≤ 127 · 127,
// so up to 133,000 inputs), so their order does not matter: every vector unit gives the same
// integers, and the float result bias + dot · (row scale · weight scale) is one fused
// multiply-add, the same on every unit. A row's result does not depend on the rows stacked with
// it. It differs from float32 by the rounding of weights and activations: docs/checkpoints.md
// measures how much.

#include <cstdint>
#include <vector>

#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/dense_ops.hpp"
#include "claimrag/pretrained/encoder_weights.hpp"
#include "claimrag/pretrained/int8_kernels.hpp"
#include "claimrag/pretrained/packed_linear.hpp"

namespace claimrag::pretrained {

class Int8Linear {
 public:
  Int8Linear() = default;
  /// Quantizes and packs `layer` for `kernel` (default: best_kernel()): 16-bit pairs for avx2,
  /// groups of 4 bytes for the others.
  explicit Int8Linear(const LinearWeights& layer, Int8Kernel kernel = best_kernel());

  [[nodiscard]] Eigen::Index inputs() const { return inputs_; }
  [[nodiscard]] Eigen::Index outputs() const { return outputs_; }
  [[nodiscard]] bool empty() const { return outputs_ == 0; }
  [[nodiscard]] Int8Kernel kernel() const { return kernel_; }
  /// Bytes held by the packed weight, its scales, the bias and (VNNI) the shift corrections:
  /// per padded output, inputs rounded up to 4 × 1 byte (2 bytes on avx2) + 8 (+ 4 with VNNI).
  [[nodiscard]] std::size_t bytes() const;

  /// y ≈ x Wᵀ + b for x [n, in]; y is resized to [n, out]. Runs on the calling thread.
  void apply(const ConstRowBlock& x, nn::Matrix<float>& y) const;

  /// The fastest kernel this CPU runs on a unit not faster than kernels::best_vector_unit() (so
  /// CLAIMRAG_VECTOR_UNIT holds): avx512 → AVX-512 VNNI, avx2 → AVX-VNNI where the CPU has them,
  /// else AVX2's 16-bit pairs. CLAIMRAG_INT8_VNNI=off leaves both VNNI kernels out, to time the
  /// AVX2 path of CPUs without them (a UsageError for a value other than on or off).
  static Int8Kernel best_kernel();
  /// The kernels this CPU runs, scalar first.
  static std::vector<Int8Kernel> available_kernels();

 private:
  Eigen::Index inputs_ = 0;
  Eigen::Index outputs_ = 0;
  Eigen::Index groups_ = 0;  ///< inputs in groups of 4 (the last padded with zeros)
  Int8Kernel kernel_ = Int8Kernel::scalar;
  /// Panels of 32 outputs. VNNI and scalar: for each group g, 32 × 4 int8 (output j's inputs
  /// 4g..4g+3 side by side); avx2: for each pair of inputs, 32 × 2 int16.
  std::vector<std::int8_t> weight8_;
  std::vector<std::int16_t> weight16_;
  std::vector<std::int32_t> shift_corrections_;  ///< VNNI only, per output: 128 · Σ_k q[j, k] (VNNI's unsigned activations)
  std::vector<float> scales_;              ///< per output, padded to whole panels with zeros
  std::vector<float> bias_;                ///< per output, padded to whole panels with zeros
};

}  // namespace claimrag::pretrained
