#pragma once
// A linear layer's weight packed once, at load, for y = x Wᵀ + b over any number of stacked rows.
//
// Every output element is one chain of fused multiply-adds started from its bias and taken over
// the inputs in their order, k = 0, 1, ..., K - 1, whatever the vector unit, the tile the element
// falls in, the number of rows stacked with it or the thread running it. So a row's result is the
// same bytes alone or stacked with any other rows, and the same on AVX-512, on AVX2 and in the
// portable scalar code (std::fma rounds once, as the vector instructions do). The weight is
// re-arranged into panels of kPanelWidth outputs, each panel's inputs contiguous, so the products
// of a whole stack read it once instead of packing it again per call.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "claimrag/kernels/panel_product.hpp"
#include "claimrag/kernels/panels.hpp"
#include "claimrag/kernels/vector_unit.hpp"
#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/dense_ops.hpp"
#include "claimrag/pretrained/encoder_weights.hpp"

namespace claimrag::pretrained {

// The vector units are those of claimrag's own products (kernels/vector_unit.hpp).
using kernels::available_vector_units;
using kernels::best_vector_unit;
using kernels::VectorUnit;
using kernels::vector_unit_name;

class PackedLinear {
 public:
  /// Outputs per panel: one AVX-512 tile's width, two AVX2 tiles'.
  static constexpr Eigen::Index kPanelWidth = kernels::kPanelWidth;

  PackedLinear() = default;
  /// Packs `layer` (weight [out, in], bias 1 × out or empty for zeros).
  explicit PackedLinear(const LinearWeights& layer);

  [[nodiscard]] Eigen::Index inputs() const { return inputs_; }
  [[nodiscard]] Eigen::Index outputs() const { return outputs_; }
  [[nodiscard]] bool empty() const { return outputs_ == 0; }
  /// Bytes held by the packed weight and bias.
  [[nodiscard]] std::size_t bytes() const;

  /// y = x Wᵀ + b for x [n, in]; y is resized to [n, out]. Runs on the calling thread.
  void apply(const ConstRowBlock& x, nn::Matrix<float>& y) const;
  /// The same on a chosen unit (which must be one of available_vector_units()).
  void apply(const ConstRowBlock& x, nn::Matrix<float>& y, VectorUnit unit) const;

 private:
  Eigen::Index inputs_ = 0;
  Eigen::Index outputs_ = 0;
  Eigen::Index panels_ = 0;
  kernels::AlignedFloats weight_;  ///< panel p: for k in [0, in), kPanelWidth floats W[p · width + j, k], zeros past out
  kernels::AlignedFloats bias_;    ///< panels_ × kPanelWidth floats, zeros past out
};

}  // namespace claimrag::pretrained
