#include "claimrag/pretrained/packed_linear.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/packed_kernels.hpp"

namespace claimrag::pretrained {
namespace {

// 64 bytes: a cache line and an AVX-512 register, so every panel row is one aligned load.
constexpr std::size_t kAlignment = 64;

float* allocate_aligned(std::size_t floats) {
  // Rounded up to whole lines (aligned_alloc requires it), at least one.
  const std::size_t bytes = std::max<std::size_t>(1, (floats * sizeof(float) + kAlignment - 1) / kAlignment) * kAlignment;
  void* data = std::aligned_alloc(kAlignment, bytes);
  if (data == nullptr) throw std::bad_alloc();
  return static_cast<float*>(data);
}

VectorUnit detect_best_unit() {
  if (packed::cpu_runs_avx512()) return VectorUnit::avx512;
  if (packed::cpu_runs_avx2()) return VectorUnit::avx2;
  return VectorUnit::scalar;
}

}  // namespace

std::string vector_unit_name(VectorUnit unit) {
  switch (unit) {
    case VectorUnit::scalar: return "scalar";
    case VectorUnit::avx2: return "avx2";
    case VectorUnit::avx512: return "avx512";
  }
  return "unknown";
}

std::vector<VectorUnit> available_vector_units() {
  std::vector<VectorUnit> units{VectorUnit::scalar};
  if (packed::cpu_runs_avx2()) units.push_back(VectorUnit::avx2);
  if (packed::cpu_runs_avx512()) units.push_back(VectorUnit::avx512);
  return units;
}

VectorUnit best_vector_unit() {
  static const VectorUnit best = detect_best_unit();
  return best;
}

void PackedLinear::FreeAligned::operator()(float* data) const { std::free(data); }

PackedLinear::PackedLinear(const LinearWeights& layer)
    : inputs_(layer.weight.cols()), outputs_(layer.weight.rows()), panels_((outputs_ + kPanelWidth - 1) / kPanelWidth) {
  if (layer.bias.size() != 0 && layer.bias.size() != outputs_) {
    throw InternalError("PackedLinear: the bias has " + std::to_string(layer.bias.size()) + " values for " +
                        std::to_string(outputs_) + " outputs");
  }
  const auto panel_floats = static_cast<std::size_t>(inputs_ * kPanelWidth);
  weight_ = AlignedFloats(allocate_aligned(static_cast<std::size_t>(panels_) * panel_floats));
  bias_ = AlignedFloats(allocate_aligned(static_cast<std::size_t>(panels_ * kPanelWidth)));
  for (Eigen::Index p = 0; p < panels_; ++p) {
    float* panel = weight_.get() + static_cast<std::size_t>(p) * panel_floats;
    for (Eigen::Index j = 0; j < kPanelWidth; ++j) {
      const Eigen::Index out = p * kPanelWidth + j;
      const bool real = out < outputs_;
      for (Eigen::Index k = 0; k < inputs_; ++k) panel[k * kPanelWidth + j] = real ? layer.weight(out, k) : 0.0F;
      bias_[static_cast<std::size_t>(out)] = real && layer.bias.size() != 0 ? layer.bias(0, out) : 0.0F;
    }
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
  void (*kernel)(const packed::LayerProduct&) = nullptr;
  switch (unit) {
    case VectorUnit::scalar: kernel = &packed::layer_product_scalar; break;
    case VectorUnit::avx2: kernel = packed::cpu_runs_avx2() ? &packed::layer_product_avx2 : nullptr; break;
    case VectorUnit::avx512: kernel = packed::cpu_runs_avx512() ? &packed::layer_product_avx512 : nullptr; break;
  }
  if (kernel == nullptr) throw InternalError("PackedLinear: this CPU does not run " + vector_unit_name(unit));
  packed::LayerProduct product;
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
  kernel(product);
}

}  // namespace claimrag::pretrained
