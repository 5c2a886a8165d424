#include "claimrag/pretrained/packed_linear.hpp"

#include <algorithm>

#include "claimrag/error.hpp"

namespace claimrag::pretrained {

PackedLinear::PackedLinear(const LinearWeights& layer)
    : inputs_(layer.weight.cols()), outputs_(layer.weight.rows()), panels_((outputs_ + kPanelWidth - 1) / kPanelWidth) {
  if (layer.bias.size() != 0 && layer.bias.size() != outputs_) {
    throw InternalError("PackedLinear: the bias has " + std::to_string(layer.bias.size()) + " values for " +
                        std::to_string(outputs_) + " outputs");
  }
  const auto panel_floats = static_cast<std::size_t>(inputs_ * kPanelWidth);
  weight_ = kernels::allocate_aligned(static_cast<std::size_t>(panels_) * panel_floats);
  bias_ = kernels::allocate_aligned(static_cast<std::size_t>(panels_ * kPanelWidth));
  kernels::pack_panels(layer.weight.data(), layer.weight.outerStride(), kernels::PanelSource::outputs_by_rows, inputs_,
                       outputs_, weight_.get());
  for (Eigen::Index out = 0; out < panels_ * kPanelWidth; ++out) {
    bias_[static_cast<std::size_t>(out)] = out < outputs_ && layer.bias.size() != 0 ? layer.bias(0, out) : 0.0F;
  }
}

std::size_t PackedLinear::bytes() const {
  return static_cast<std::size_t>(panels_ * kPanelWidth * (inputs_ + 1)) * sizeof(float);
}

void PackedLinear::apply(const ConstRowBlock& x, nn::Matrix<float>& y) const { apply(x, y, best_vector_unit()); }

void PackedLinear::apply(const ConstRowBlock& x, nn::Matrix<float>& y, VectorUnit unit) const {
  if (x.cols() != inputs_) {
    throw InternalError("PackedLinear: " + std::to_string(x.cols()) + " inputs for a layer of " + std::to_string(inputs_));
  }
  y.resize(x.rows(), outputs_);
  if (x.rows() == 0 || outputs_ == 0) return;
  kernels::LayerProduct product;
  product.first.x = x.data();
  product.first.x_stride = x.outerStride();
  product.first.rows = x.rows();
  product.first.panel = weight_.get();
  product.first.bias = bias_.get();
  product.first.depth = inputs_;
  product.first.y = y.data();
  product.first.y_stride = y.outerStride();
  product.panels = panels_;
  product.outputs = outputs_;
  kernels::layer_product(product, unit);
}

}  // namespace claimrag::pretrained
