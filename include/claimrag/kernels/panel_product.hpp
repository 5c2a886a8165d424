#pragma once
// The inner loops of claimrag's own float products: panels of 32 outputs, their inputs contiguous,
// against every stacked row, on one vector unit. Each output element is the chain
// start + x[0]·w[0] + x[1]·w[1] + ... taken in that order with one rounding per step (a fused
// multiply-add), so every unit gives the same bytes, edge tiles included. The start is the bias
// of the output's column, or the value the output already holds (a product added into it).

#include <cstddef>

#include <Eigen/Core>

#include "claimrag/kernels/vector_unit.hpp"

namespace claimrag::kernels {

/// Outputs per panel: one AVX-512 tile's width, two AVX2 tiles'.
inline constexpr Eigen::Index kPanelWidth = 32;

/// One panel's product: y[r, j] = start[r, j] + Σ_k x[r, k] · panel[k · 32 + j] for r < rows,
/// j < columns, where start is bias[j], or y[r, j] itself when start_from_output.
struct PanelProduct {
  const float* x = nullptr;     ///< row r, input k at x[r · x_stride + k · x_depth_stride]
  std::ptrdiff_t x_stride = 0;
  std::ptrdiff_t x_depth_stride = 1;  ///< 1 for rows of inputs; a row's length to read a transpose in place
  Eigen::Index rows = 0;
  const float* panel = nullptr;  ///< 64-byte aligned: depth × 32 floats
  const float* bias = nullptr;   ///< 64-byte aligned: 32 floats (unused when start_from_output)
  Eigen::Index depth = 0;        ///< inputs
  float* y = nullptr;            ///< row r, output j at y[r · y_stride + j]
  std::ptrdiff_t y_stride = 0;
  Eigen::Index columns = 0;      ///< outputs of this panel that exist (1 to 32)
  bool start_from_output = false;
};

/// A whole packed layer: `panels` panels of 32 outputs, panel p at weight + p · depth · 32 and its
/// bias at bias + p · 32; outputs at most panels · 32. The panels' other fields are those of
/// PanelProduct.
struct LayerProduct {
  PanelProduct first;        ///< panel 0 (its columns are set per panel from `outputs`)
  Eigen::Index panels = 0;
  Eigen::Index outputs = 0;
};

/// y = start + x Wᵀ over every panel of `layer`, each unit walking the panels as suits its
/// registers (AVX-512 two neighbouring panels at a time). The same bytes on every unit.
void layer_product_scalar(const LayerProduct& layer);
void layer_product_avx2(const LayerProduct& layer);
void layer_product_avx512(const LayerProduct& layer);

/// The same on `unit`; throws InternalError when this CPU does not run it.
void layer_product(const LayerProduct& layer, VectorUnit unit);

}  // namespace claimrag::kernels
