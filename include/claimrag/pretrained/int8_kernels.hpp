#pragma once
// The inner loops of Int8Linear: one panel of 32 outputs against every stacked row, on one vector
// unit. Each output's dot product of int8 weights and int8 activations is summed exactly in int32,
// then y = bias + float(dot) · (row scale · output scale) in one fused multiply-add, so every unit
// gives the same bytes.

#include <cstddef>
#include <cstdint>
#include <string>

#include <Eigen/Core>

namespace claimrag::pretrained {

/// The int8 products' kernels, slowest first. Each reads the same integers and sums them exactly,
/// so all give the same bytes.
enum class Int8Kernel {
  scalar,       ///< portable code
  avx2,         ///< AVX2 16-bit pairs (vpmaddwd), for AVX2 CPUs without VNNI
  avx_vnni,     ///< AVX-VNNI (vpdpbusd on 256 bits, VEX), as on AVX2 CPUs that have it
  avx512_vnni,  ///< AVX-512 VNNI
};

/// "scalar", "avx2", "avx-vnni" or "avx512-vnni".
std::string int8_kernel_name(Int8Kernel kernel);

}  // namespace claimrag::pretrained

namespace claimrag::pretrained::int8 {

/// One panel's product. The activation and weight layouts are the unit's (int8_linear.cpp).
struct PanelProduct {
  const void* x = nullptr;  ///< row r at x + r · x_stride elements (int8, uint8 or int16 by unit)
  std::ptrdiff_t x_stride = 0;
  Eigen::Index rows = 0;
  const float* row_scales = nullptr;      ///< rows
  const void* panel = nullptr;            ///< the panel's packed weights
  Eigen::Index groups = 0;                ///< inputs / 4 (padded)
  const std::int32_t* shift_corrections = nullptr;  ///< 32: 128 · Σ_k q[j, k] (used by the unsigned-activation unit)
  const float* scales = nullptr;          ///< 32 output scales
  const float* bias = nullptr;            ///< 32
  float* y = nullptr;
  std::ptrdiff_t y_stride = 0;
  Eigen::Index columns = 0;  ///< outputs of this panel that exist (1 to 32)
};

/// x: int8 activations; panel: for each group g, 32 outputs × 4 int8.
void panel_product_scalar(const PanelProduct& product);
/// x: int16 activations; panel: for each pair of inputs, 32 outputs × 2 int16.
void panel_product_avx2(const PanelProduct& product);
/// x: activations + 128 as uint8; panel: as the scalar one.
void panel_product_avx_vnni(const PanelProduct& product);
/// x and panel: as the AVX-VNNI one.
void panel_product_avx512_vnni(const PanelProduct& product);

/// Whether this CPU runs the AVX-512 VNNI kernel.
bool cpu_runs_avx512_vnni();
/// Whether this CPU runs the AVX-VNNI kernel (AVX2 with the VEX-encoded dot products).
bool cpu_runs_avx_vnni();

}  // namespace claimrag::pretrained::int8
