#pragma once
// The inner loops of PackedLinear: one panel of packed outputs against every stacked row, on one
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

void panel_product_scalar(const PanelProduct& product);
void panel_product_avx2(const PanelProduct& product);
void panel_product_avx512(const PanelProduct& product);
/// Two neighbouring panels at once (the second depth × 32 floats after the first, its bias the
/// 32 floats after the first's); `columns` counts both (33 to 64).
void panel_pair_product_avx512(const PanelProduct& product);

/// Whether this CPU (and its operating system) runs the AVX2 + FMA3, or the AVX-512F, kernels.
bool cpu_runs_avx2();
bool cpu_runs_avx512();

}  // namespace claimrag::pretrained::packed
