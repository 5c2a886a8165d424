#pragma once
// The inner loops of PackedLinear: the packed panels of outputs against every stacked row, on one
// vector unit. Each output element is the chain bias + x[0]·w[0] + x[1]·w[1] + ... taken in that
// order with one rounding per step (a fused multiply-add), so the three give the same bytes.

#include <cstddef>

#include <Eigen/Core>

namespace claimrag::pretrained::packed {

/// One panel's product: y[r, j] = bias[j] + Σ_k x[r, k] · panel[k · 32 + j] for r < rows, j < columns.
struct PanelProduct {
  const float* x = nullptr;     ///< row r, input k at x[r · x_stride + k]
  std::ptrdiff_t x_stride = 0;
  Eigen::Index rows = 0;
  const float* panel = nullptr;  ///< 64-byte aligned: depth × 32 floats
  const float* bias = nullptr;   ///< 64-byte aligned: 32 floats
  Eigen::Index depth = 0;        ///< inputs
  float* y = nullptr;            ///< row r, output j at y[r · y_stride + j]
  std::ptrdiff_t y_stride = 0;
  Eigen::Index columns = 0;      ///< outputs of this panel that exist (1 to 32)
};

/// A whole packed layer: `panels` panels of 32 outputs, panel p at weight + p · depth · 32 and its
/// bias at bias + p · 32; outputs at most panels · 32. The panels' x, rows, depth and y fields are
/// those of PanelProduct.
struct LayerProduct {
  PanelProduct first;        ///< panel 0 (its columns are set per panel from `outputs`)
  Eigen::Index panels = 0;
  Eigen::Index outputs = 0;
};

/// y = x Wᵀ + b over every panel of `layer`, each unit walking the panels as suits its registers
/// (AVX-512 two neighbouring panels at a time). The same bytes on every unit.
void layer_product_scalar(const LayerProduct& layer);
void layer_product_avx2(const LayerProduct& layer);
void layer_product_avx512(const LayerProduct& layer);

/// Whether this CPU (and its operating system) runs the AVX2 + FMA3, or the AVX-512F, kernels.
bool cpu_runs_avx2();
bool cpu_runs_avx512();

}  // namespace claimrag::pretrained::packed
