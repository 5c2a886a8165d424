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

/// Writes the panels of the depth × outputs operand whose element (k, j) is weight(k, j) into
/// `panels` (panel_count(outputs) · depth · 32 floats).
template <typename Weight>
void pack_panels(Eigen::Index depth, Eigen::Index outputs, const Weight& weight, float* panels) {
  for (Eigen::Index p = 0; p < panel_count(outputs); ++p) {
    float* panel = panels + p * depth * kPanelWidth;
    const Eigen::Index first = p * kPanelWidth;
    const Eigen::Index width = std::min(kPanelWidth, outputs - first);
    for (Eigen::Index k = 0; k < depth; ++k) {
      float* line = panel + k * kPanelWidth;
      for (Eigen::Index j = 0; j < width; ++j) line[j] = weight(k, first + j);
      for (Eigen::Index j = width; j < kPanelWidth; ++j) line[j] = 0.0F;
    }
  }
}

}  // namespace claimrag::kernels
