#pragma once
// Panels: a right-hand operand re-arranged for the panel product (panel_product.hpp), in 64-byte
// aligned memory. Panel p holds outputs [32p, 32p + 32): for each input k, its 32 weights side by
// side, zeros past the last output.

#include <cstddef>
#include <memory>

#include <Eigen/Core>

#include "claimrag/kernels/panel_product.hpp"

namespace claimrag::kernels {

/// Frees what allocate_aligned returned.
struct FreeAligned {
  void operator()(float* data) const;
};

/// Floats in 64-byte aligned memory (a cache line and an AVX-512 register).
using AlignedFloats = std::unique_ptr<float[], FreeAligned>;

/// `floats` floats, 64-byte aligned (at least one cache line). Throws std::bad_alloc.
AlignedFloats allocate_aligned(std::size_t floats);

/// Panels covering `outputs` outputs.
constexpr Eigen::Index panel_count(Eigen::Index outputs) { return (outputs + kPanelWidth - 1) / kPanelWidth; }

/// How an operand of depth × outputs lies in row-major memory.
enum class PanelSource {
  inputs_by_rows,   ///< element (k, j) at data[k · stride + j]: b of a · b
  outputs_by_rows,  ///< element (k, j) at data[j · stride + k]: a weight [out, in], or b of a · bᵀ
};

/// Writes the panels of the depth × outputs operand at `data` into `panels`
/// (panel_count(outputs) · depth · 32 floats).
void pack_panels(const float* data, std::ptrdiff_t stride, PanelSource source, Eigen::Index depth,
                 Eigen::Index outputs, float* panels);

}  // namespace claimrag::kernels
