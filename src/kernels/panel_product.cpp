#include "claimrag/kernels/panel_product.hpp"

#include "claimrag/kernels/row_tiles.hpp"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

// The vector kernels are compiled for their instruction sets function by function (the rest of
// the program targets baseline x86-64) and called only when the CPU reports them
// (vector_unit.hpp). Their sums are written as explicit fused multiply-adds in input order, so no
// compiler contraction or reassociation can change a bit.

namespace claimrag::kernels {
namespace {

constexpr int kWidth = static_cast<int>(kPanelWidth);
constexpr int kAvx512Rows = 12;  // 24 accumulators of the 32 registers
constexpr int kAvx512PairRows = 6;  // 24 accumulators, four per row
constexpr int kAvx2Rows = 6;     // 12 accumulators of the 16 registers
constexpr int kAvx2FullRateRows = 4;  // 8 chains: two multiply-add pipes × a 4-cycle latency
constexpr int kAvx2PrefetchSteps = 64;  // inputs ahead: 8 KB of panel, a few hundred cycles of work
// Inputs per pass over the rows: 16 KB of a panel half, which stays in a 32 KB first-level cache
// (Zen 2 and 3, Intel's cores before Ice Lake) while every row's tile reads it.
constexpr Eigen::Index kAvx2DepthBlock = 256;
constexpr int kAvx2WideRows = 3;           // the wide tile's 12 accumulators, four per row
constexpr int kAvx2WideFullRateRows = 2;   // 8 chains, as above
// The wide tile's inputs per pass: 16 KB of whole panel lines (on Zen 4, 128 timed faster than 64).
constexpr Eigen::Index kAvx2WideDepthBlock = 128;

template <int Rows>
struct Avx512Tile {
  __attribute__((target("avx512f"))) static void run(Eigen::Index first_row, const PanelProduct& p);
};

template <int Rows>
__attribute__((target("avx512f"))) void Avx512Tile<Rows>::run(Eigen::Index first_row, const PanelProduct& p) {
  const float* x = p.x + first_row * p.x_stride;
  __m512 low[Rows];
  __m512 high[Rows];
  const auto [mask_low, mask_high] = panel_half_masks(p.columns);
  float* y = p.y + first_row * p.y_stride;
  if (p.start_from_output) {
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
      low[r] = _mm512_maskz_loadu_ps(mask_low, y + r * p.y_stride);
      high[r] = _mm512_maskz_loadu_ps(mask_high, y + r * p.y_stride + 16);
    }
  } else {
    const __m512 bias_low = _mm512_load_ps(p.bias);
    const __m512 bias_high = _mm512_load_ps(p.bias + 16);
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
      low[r] = bias_low;
      high[r] = bias_high;
    }
  }
  const float* w = p.panel;
  for (Eigen::Index k = 0; k < p.depth; ++k, w += kWidth) {
    const __m512 w_low = _mm512_load_ps(w);
    const __m512 w_high = _mm512_load_ps(w + 16);
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
      const __m512 v = _mm512_set1_ps(x[r * p.x_stride + k * p.x_depth_stride]);
      low[r] = _mm512_fmadd_ps(v, w_low, low[r]);
      high[r] = _mm512_fmadd_ps(v, w_high, high[r]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < Rows; ++r) {
    _mm512_mask_storeu_ps(y + r * p.y_stride, mask_low, low[r]);
    _mm512_mask_storeu_ps(y + r * p.y_stride + 16, mask_high, high[r]);
  }
}

// Two neighbouring panels (64 outputs) at once: each broadcast input feeds four multiply-adds
// instead of two, so a step loads 10 values for 24 multiply-adds instead of 14. The panels are
// contiguous, the second depth × 32 floats after the first; each output's chain is unchanged.
template <int Rows>
struct Avx512PairTile {
  __attribute__((target("avx512f"))) static void run(Eigen::Index first_row, const PanelProduct& p);
};

template <int Rows>
__attribute__((target("avx512f"))) void Avx512PairTile<Rows>::run(Eigen::Index first_row, const PanelProduct& p) {
  const float* x = p.x + first_row * p.x_stride;
  __m512 acc[Rows][4];
  const auto [mask0, mask1] = panel_half_masks(p.columns);
  const auto [mask2, mask3] = panel_half_masks(p.columns - kWidth);
  const std::uint16_t masks[4] = {mask0, mask1, mask2, mask3};
  float* y = p.y + first_row * p.y_stride;
  if (p.start_from_output) {
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) acc[r][q] = _mm512_maskz_loadu_ps(masks[q], y + r * p.y_stride + 16 * q);
    }
  } else {
    __m512 bias[4];
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) bias[q] = _mm512_load_ps(p.bias + 16 * q);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) acc[r][q] = bias[q];
    }
  }
  const float* w = p.panel;
  const float* w2 = p.panel + p.depth * kWidth;
  for (Eigen::Index k = 0; k < p.depth; ++k, w += kWidth, w2 += kWidth) {
    const __m512 w0 = _mm512_load_ps(w);
    const __m512 w1 = _mm512_load_ps(w + 16);
    const __m512 w2a = _mm512_load_ps(w2);
    const __m512 w2b = _mm512_load_ps(w2 + 16);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m512 v = _mm512_set1_ps(x[r * p.x_stride + k * p.x_depth_stride]);
      acc[r][0] = _mm512_fmadd_ps(v, w0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(v, w1, acc[r][1]);
      acc[r][2] = _mm512_fmadd_ps(v, w2a, acc[r][2]);
      acc[r][3] = _mm512_fmadd_ps(v, w2b, acc[r][3]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    _mm512_mask_storeu_ps(y + r * p.y_stride, mask0, acc[r][0]);
    _mm512_mask_storeu_ps(y + r * p.y_stride + 16, mask1, acc[r][1]);
    _mm512_mask_storeu_ps(y + r * p.y_stride + 32, mask2, acc[r][2]);
    _mm512_mask_storeu_ps(y + r * p.y_stride + 48, mask3, acc[r][3]);
  }
}

// A tile's chains over every input, from the panel half at w. The first tile of a panel finds
// the panel in memory, not in a cache (its rows' tiles follow it): with Leading, it also asks for
// both halves of the panel's lines kAvx2PrefetchSteps inputs ahead, its own into the first-level
// cache and the other half's into the second-level one, where the second half's tiles find it.
template <int Rows, bool Leading, bool RowsContiguous>
__attribute__((target("avx2,fma"), always_inline)) inline void avx2_chains(const float* x, const PanelProduct& p, const float* w,
                                                                          __m256 (&low)[Rows], __m256 (&high)[Rows]) {
  // The fields read in the loop, as locals: read through `p`, they would be loaded again at every
  // step, as the compiler cannot tell that the stores of other tiles leave them alone.
  const Eigen::Index depth = p.depth;
  const std::ptrdiff_t depth_stride = RowsContiguous ? 1 : p.x_depth_stride;
  const float* row[Rows];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) row[r] = x + r * p.x_stride;
  for (Eigen::Index k = 0; k < depth; ++k, w += kWidth) {
    if constexpr (Leading) {
      _mm_prefetch(reinterpret_cast<const char*>(w + kAvx2PrefetchSteps * kWidth), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(w + kAvx2PrefetchSteps * kWidth + 16), _MM_HINT_T1);
    }
    const __m256 w_low = _mm256_load_ps(w);
    const __m256 w_high = _mm256_load_ps(w + 8);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m256 v = _mm256_broadcast_ss(row[r] + k * depth_stride);
      low[r] = _mm256_fmadd_ps(v, w_low, low[r]);
      high[r] = _mm256_fmadd_ps(v, w_high, high[r]);
    }
  }
}

// The AVX2 tile: 6 rows × 16 outputs (one half of a panel), for a last panel of fewer than 32
// outputs (whole panels take the wide tile below). Register plan: 12 accumulators (a row's two
// 8-lane halves), the two weight vectors of the current input and one broadcast input, 15 of the
// 16 registers. A step loads 2 weight vectors and 6 inputs for 12 multiply-adds. The first tile
// of a panel fetches its weights ahead (avx2_chains). A last tile of 1 to 3 rows (too few chains
// to fill the pipes) is split with the full tile before it (over_row_tiles).
template <int Rows>
struct Avx2Tile {
  __attribute__((target("avx2,fma"))) static void run(Eigen::Index first_row, const PanelProduct& p, const int& half);
};

template <int Rows>
__attribute__((target("avx2,fma"))) void Avx2Tile<Rows>::run(Eigen::Index first_row, const PanelProduct& p, const int& half) {
  const float* x = p.x + first_row * p.x_stride;
  __m256 low[Rows];
  __m256 high[Rows];
  const int columns = std::min(16, static_cast<int>(p.columns) - half * 16);
  float* y = p.y + first_row * p.y_stride + half * 16;
  if (p.start_from_output && columns == 16) {
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      low[r] = _mm256_loadu_ps(y + r * p.y_stride);
      high[r] = _mm256_loadu_ps(y + r * p.y_stride + 8);
    }
  } else if (p.start_from_output) {
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      alignas(32) float edge[16] = {};
      std::memcpy(edge, y + r * p.y_stride, static_cast<std::size_t>(columns) * sizeof(float));
      low[r] = _mm256_load_ps(edge);
      high[r] = _mm256_load_ps(edge + 8);
    }
  } else {
    const __m256 bias_low = _mm256_load_ps(p.bias + half * 16);
    const __m256 bias_high = _mm256_load_ps(p.bias + half * 16 + 8);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      low[r] = bias_low;
      high[r] = bias_high;
    }
  }
  const bool leading = first_row == 0 && half == 0;
  if (p.x_depth_stride == 1) {
    if (leading) {
      avx2_chains<Rows, true, true>(x, p, p.panel, low, high);
    } else {
      avx2_chains<Rows, false, true>(x, p, p.panel + half * 16, low, high);
    }
  } else if (leading) {
    avx2_chains<Rows, true, false>(x, p, p.panel, low, high);
  } else {
    avx2_chains<Rows, false, false>(x, p, p.panel + half * 16, low, high);
  }
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    if (columns == 16) {
      _mm256_storeu_ps(y + r * p.y_stride, low[r]);
      _mm256_storeu_ps(y + r * p.y_stride + 8, high[r]);
    } else {
      alignas(32) float edge[16];
      _mm256_store_ps(edge, low[r]);
      _mm256_store_ps(edge + 8, high[r]);
      std::memcpy(y + r * p.y_stride, edge, static_cast<std::size_t>(columns) * sizeof(float));
    }
  }
}

// The wide AVX2 tile: 3 rows × a whole panel's 32 outputs. Register plan: 12 accumulators, the
// four weight vectors of the current input (the compiler folds some into the multiply-adds as
// memory operands) and one broadcast. A step loads 4 weight vectors and 3 inputs for 12
// multiply-adds. Against the 6 × 16 tile on half panels it broadcasts half as many inputs per
// multiply-add, reads each row's inputs once per panel instead of once per half, and its block of
// panel lines lies contiguous in the first-level cache (a half's lines are every other line, so
// they use only half of the cache's sets). Measured on Zen 4 (scripts/bench/packed_products.sh),
// the products ran about 10 % faster on average than with the 6 × 16 tile, up to 30 % on some
// shapes.
template <int Rows>
struct Avx2WideTile {
  __attribute__((target("avx2,fma"))) static void run(Eigen::Index first_row, const PanelProduct& p);
};

template <int Rows>
__attribute__((target("avx2,fma"))) void Avx2WideTile<Rows>::run(Eigen::Index first_row, const PanelProduct& p) {
  const float* x = p.x + first_row * p.x_stride;
  float* y = p.y + first_row * p.y_stride;
  __m256 acc[Rows][4];
  if (p.start_from_output) {
#pragma GCC unroll 4
    for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) acc[r][q] = _mm256_loadu_ps(y + r * p.y_stride + 8 * q);
    }
  } else {
#pragma GCC unroll 4
    for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) acc[r][q] = _mm256_load_ps(p.bias + 8 * q);
    }
  }
  const Eigen::Index depth = p.depth;
  const std::ptrdiff_t depth_stride = p.x_depth_stride;
  const bool leading = first_row == 0;
  const float* row[Rows];
#pragma GCC unroll 4
  for (int r = 0; r < Rows; ++r) row[r] = x + r * p.x_stride;
  const float* w = p.panel;
  for (Eigen::Index k = 0; k < depth; ++k, w += kWidth) {
    if (leading) {
      _mm_prefetch(reinterpret_cast<const char*>(w + kAvx2PrefetchSteps * kWidth), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(w + kAvx2PrefetchSteps * kWidth + 16), _MM_HINT_T0);
    }
    const __m256 w0 = _mm256_load_ps(w);
    const __m256 w1 = _mm256_load_ps(w + 8);
    const __m256 w2 = _mm256_load_ps(w + 16);
    const __m256 w3 = _mm256_load_ps(w + 24);
#pragma GCC unroll 4
    for (int r = 0; r < Rows; ++r) {
      const __m256 v = _mm256_broadcast_ss(row[r] + k * depth_stride);
      acc[r][0] = _mm256_fmadd_ps(v, w0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(v, w1, acc[r][1]);
      acc[r][2] = _mm256_fmadd_ps(v, w2, acc[r][2]);
      acc[r][3] = _mm256_fmadd_ps(v, w3, acc[r][3]);
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) _mm256_storeu_ps(y + r * p.y_stride + 8 * q, acc[r][q]);
  }
}

// The product of `count` panels from panel `first` on: a view of the layer's panels.
PanelProduct panels_from(const LayerProduct& layer, Eigen::Index first, Eigen::Index count) {
  PanelProduct panel = layer.first;
  panel.panel += first * layer.first.depth * kWidth;
  panel.bias += first * kWidth;
  panel.y += first * kWidth;
  panel.columns = std::min<Eigen::Index>(count * kWidth, layer.outputs - first * kWidth);
  return panel;
}

}  // namespace

// Panels outside, rows inside: a panel (at most 32 × inputs floats) stays in the core's cache while
// every row streams past it.
void layer_product_scalar(const LayerProduct& layer) {
  for (Eigen::Index panel = 0; panel < layer.panels; ++panel) {
    const PanelProduct p = panels_from(layer, panel, 1);
    for (Eigen::Index r = 0; r < p.rows; ++r) {
      const float* x = p.x + r * p.x_stride;
      float* y = p.y + r * p.y_stride;
      for (Eigen::Index j = 0; j < p.columns; ++j) {
        float sum = p.start_from_output ? y[j] : p.bias[j];
        for (Eigen::Index k = 0; k < p.depth; ++k) sum = std::fma(x[k * p.x_depth_stride], p.panel[k * kWidth + j], sum);
        y[j] = sum;
      }
    }
  }
}

// A panel's inputs in blocks of kAvx2DepthBlock: each block's tiles add their part of the chain to
// what the block before left in y (a float stored and loaded back is exact, so each output's chain
// is the same steps in the same order as in one pass), and the block's half-panel stays in the
// first-level cache instead of streaming from the second for every tile of rows.
void layer_product_avx2(const LayerProduct& layer) {
  for (Eigen::Index panel = 0; panel < layer.panels; ++panel) {
    const PanelProduct whole = panels_from(layer, panel, 1);
    const int halves = whole.columns > 16 ? 2 : 1;
    const bool wide = whole.columns == kWidth;
    const Eigen::Index depth_block = wide ? kAvx2WideDepthBlock : kAvx2DepthBlock;
    for (Eigen::Index first = 0; first < whole.depth; first += depth_block) {
      PanelProduct block = whole;
      block.depth = std::min(depth_block, whole.depth - first);
      block.panel += first * kWidth;
      block.x += first * whole.x_depth_stride;
      block.start_from_output = whole.start_from_output || first > 0;
      if (wide) {
        over_row_tiles<Avx2WideTile, kAvx2WideRows, kAvx2WideFullRateRows>(block.rows, block);
        continue;
      }
      for (int half = 0; half < halves; ++half) over_row_tiles<Avx2Tile, kAvx2Rows, kAvx2FullRateRows>(block.rows, block, half);
    }
  }
}

// Two neighbouring panels at a time (fewer loads per multiply-add), one panel for an odd last one.
void layer_product_avx512(const LayerProduct& layer) {
  Eigen::Index panel = 0;
  for (; panel + 1 < layer.panels; panel += 2) {
    const PanelProduct pair = panels_from(layer, panel, 2);
    over_row_tiles<Avx512PairTile, kAvx512PairRows>(pair.rows, pair);
  }
  if (panel < layer.panels) {
    const PanelProduct last = panels_from(layer, panel, 1);
    over_row_tiles<Avx512Tile, kAvx512Rows>(last.rows, last);
  }
}

void layer_product(const LayerProduct& layer, VectorUnit unit) {
  for_unit(unit, &layer_product_scalar, &layer_product_avx2, &layer_product_avx512, "products")(layer);
}

}  // namespace claimrag::kernels
