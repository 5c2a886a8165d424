#include "claimrag/pretrained/int8_kernels.hpp"

#include "claimrag/kernels/row_tiles.hpp"

#include <cpuid.h>
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <utility>

// As in kernels/panel_product.cpp, each vector kernel is compiled for its instruction set alone and
// called only when the CPU reports it.

namespace claimrag::pretrained::int8 {
namespace {

using kernels::over_row_tiles;
using kernels::panel_half_masks;

constexpr int kWidth = 32;
constexpr int kAvx512Rows = 12;
constexpr int kAvx2Rows = 6;

std::int32_t four_bytes(const std::uint8_t* bytes) {
  std::int32_t value = 0;
  std::memcpy(&value, bytes, sizeof(value));
  return value;
}

// acc += the dot products of each 32-bit lane's 4 unsigned bytes of u8 and 4 signed bytes of s8.
// Written as the instruction itself: GCC 12 does not tie the vpdpbusd intrinsic's accumulator to
// its destination, so in a tile it copied every accumulator through another register and the
// stack on every step (about 40 % of the AVX-512 tile's time); an input-output operand keeps the
// tile's accumulators in registers.
__attribute__((target("avx512f,avx512vnni"))) inline void dot_accumulate(__m512i& acc, __m512i u8, __m512i s8) {
  asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(u8), "v"(s8));
}

// The same for AVX-VNNI's 256-bit form; {vex} (its braces escaped for asm) asks for the VEX encoding, which CPUs without
// AVX-512 run.
__attribute__((target("avx2,avxvnni"))) inline void dot_accumulate(__m256i& acc, __m256i u8, __m256i s8) {
  asm("%{vex%} vpdpbusd %2, %1, %0" : "+x"(acc) : "x"(u8), "x"(s8));
}

template <int Rows>
struct Avx512VnniTile {
  __attribute__((target("avx512f,avx512vnni"))) static void run(Eigen::Index first_row, const PanelProduct& p);
};

template <int Rows>
__attribute__((target("avx512f,avx512vnni"))) void Avx512VnniTile<Rows>::run(Eigen::Index first_row, const PanelProduct& p) {
  const auto* x = static_cast<const std::uint8_t*>(p.x) + first_row * p.x_stride;
  const auto* w = static_cast<const std::int8_t*>(p.panel);
  __m512i low[Rows];
  __m512i high[Rows];
#pragma GCC unroll 16
  for (int r = 0; r < Rows; ++r) {
    low[r] = _mm512_setzero_si512();
    high[r] = _mm512_setzero_si512();
  }
  for (Eigen::Index g = 0; g < p.groups; ++g, w += 4 * kWidth) {
    const __m512i w_low = _mm512_loadu_si512(w);
    const __m512i w_high = _mm512_loadu_si512(w + 64);
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
      const __m512i v = _mm512_set1_epi32(four_bytes(x + r * p.x_stride + 4 * g));
      dot_accumulate(low[r], v, w_low);
      dot_accumulate(high[r], v, w_high);
    }
  }
  // The activations were shifted by 128 to be unsigned: take 128 · Σ_k q[j, k] back off.
  const __m512i correction_low = _mm512_loadu_si512(p.shift_corrections);
  const __m512i correction_high = _mm512_loadu_si512(p.shift_corrections + 16);
  const __m512 scales_low = _mm512_loadu_ps(p.scales);
  const __m512 scales_high = _mm512_loadu_ps(p.scales + 16);
  const __m512 bias_low = _mm512_loadu_ps(p.bias);
  const __m512 bias_high = _mm512_loadu_ps(p.bias + 16);
  const auto [mask_low, mask_high] = panel_half_masks(p.columns);
  float* y = p.y + first_row * p.y_stride;
#pragma GCC unroll 16
  for (int r = 0; r < Rows; ++r) {
    const __m512 row_scale = _mm512_set1_ps(p.row_scales[first_row + r]);
    // The zero-masked conversion with every lane set: GCC 12 warns falsely (-Wuninitialized) on the
    // unmasked one's undefined source.
    const __m512 dot_low = _mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_sub_epi32(low[r], correction_low));
    const __m512 dot_high = _mm512_maskz_cvtepi32_ps(0xFFFF, _mm512_sub_epi32(high[r], correction_high));
    _mm512_mask_storeu_ps(y + r * p.y_stride, mask_low, _mm512_fmadd_ps(dot_low, _mm512_mul_ps(row_scale, scales_low), bias_low));
    _mm512_mask_storeu_ps(y + r * p.y_stride + 16, mask_high,
                          _mm512_fmadd_ps(dot_high, _mm512_mul_ps(row_scale, scales_high), bias_high));
  }
}

// The 256-bit tiles' last step, for one half-panel of 16 outputs: y = bias + float(dot) · (row
// scale · output scale), one fused multiply-add, only the outputs that exist stored.
template <int Rows>
__attribute__((target("avx2,fma"))) inline void store_half_tile(const __m256i (&low)[Rows], const __m256i (&high)[Rows],
                                                                 Eigen::Index first_row, const PanelProduct& p, int half) {
  const __m256 scales_low = _mm256_loadu_ps(p.scales + half * 16);
  const __m256 scales_high = _mm256_loadu_ps(p.scales + half * 16 + 8);
  const __m256 bias_low = _mm256_loadu_ps(p.bias + half * 16);
  const __m256 bias_high = _mm256_loadu_ps(p.bias + half * 16 + 8);
  const int columns = std::min(16, static_cast<int>(p.columns) - half * 16);
  float* y = p.y + first_row * p.y_stride + half * 16;
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    const __m256 row_scale = _mm256_set1_ps(p.row_scales[first_row + r]);
    alignas(32) float out[16];
    _mm256_store_ps(out, _mm256_fmadd_ps(_mm256_cvtepi32_ps(low[r]), _mm256_mul_ps(row_scale, scales_low), bias_low));
    _mm256_store_ps(out + 8, _mm256_fmadd_ps(_mm256_cvtepi32_ps(high[r]), _mm256_mul_ps(row_scale, scales_high), bias_high));
    std::memcpy(y + r * p.y_stride, out, static_cast<std::size_t>(columns) * sizeof(float));
  }
}

template <int Rows>
struct Avx2Tile {
  __attribute__((target("avx2,fma"))) static void run(Eigen::Index first_row, const PanelProduct& p, const int& half);
};

template <int Rows>
__attribute__((target("avx2,fma"))) void Avx2Tile<Rows>::run(Eigen::Index first_row, const PanelProduct& p, const int& half) {
  const auto* x = static_cast<const std::int16_t*>(p.x) + first_row * p.x_stride;
  const auto* w = static_cast<const std::int16_t*>(p.panel) + half * 32;
  __m256i low[Rows];
  __m256i high[Rows];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    low[r] = _mm256_setzero_si256();
    high[r] = _mm256_setzero_si256();
  }
  const Eigen::Index pairs = 2 * p.groups;
  for (Eigen::Index k = 0; k < pairs; ++k, w += 2 * kWidth) {
    const __m256i w_low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w));
    const __m256i w_high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 16));
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      std::int32_t pair = 0;
      std::memcpy(&pair, x + r * p.x_stride + 2 * k, sizeof(pair));
      const __m256i v = _mm256_set1_epi32(pair);
      low[r] = _mm256_add_epi32(low[r], _mm256_madd_epi16(v, w_low));
      high[r] = _mm256_add_epi32(high[r], _mm256_madd_epi16(v, w_high));
    }
  }
  store_half_tile<Rows>(low, high, first_row, p, half);
}

// AVX-VNNI has the 16 ymm registers of AVX2: a tile is 6 rows × one half-panel of 16 outputs,
// 12 accumulators, the half's two weight vectors (8 outputs × 4 inputs each) and the broadcast
// group of 4 activations. Per group: 2 weight loads and 6 broadcasts for 12 dot products of 4.
template <int Rows>
struct AvxVnniTile {
  __attribute__((target("avx2,fma,avxvnni"))) static void run(Eigen::Index first_row, const PanelProduct& p, const int& half);
};

template <int Rows>
__attribute__((target("avx2,fma,avxvnni"))) void AvxVnniTile<Rows>::run(Eigen::Index first_row, const PanelProduct& p, const int& half) {
  const auto* x = static_cast<const std::uint8_t*>(p.x) + first_row * p.x_stride;
  const auto* w = static_cast<const std::int8_t*>(p.panel) + half * 64;
  __m256i low[Rows];
  __m256i high[Rows];
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    low[r] = _mm256_setzero_si256();
    high[r] = _mm256_setzero_si256();
  }
  for (Eigen::Index g = 0; g < p.groups; ++g, w += 4 * kWidth) {
    const __m256i w_low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w));
    const __m256i w_high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 32));
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m256i v = _mm256_set1_epi32(four_bytes(x + r * p.x_stride + 4 * g));
      dot_accumulate(low[r], v, w_low);
      dot_accumulate(high[r], v, w_high);
    }
  }
  // As in the AVX-512 tile: take the activations' shift by 128 back off, then scale.
  const __m256i correction_low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.shift_corrections + half * 16));
  const __m256i correction_high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p.shift_corrections + half * 16 + 8));
#pragma GCC unroll 8
  for (int r = 0; r < Rows; ++r) {
    low[r] = _mm256_sub_epi32(low[r], correction_low);
    high[r] = _mm256_sub_epi32(high[r], correction_high);
  }
  store_half_tile<Rows>(low, high, first_row, p, half);
}

}  // namespace

void panel_product_scalar(const PanelProduct& p) {
  const auto* w = static_cast<const std::int8_t*>(p.panel);
  for (Eigen::Index r = 0; r < p.rows; ++r) {
    const auto* x = static_cast<const std::int8_t*>(p.x) + r * p.x_stride;
    float* y = p.y + r * p.y_stride;
    for (Eigen::Index j = 0; j < p.columns; ++j) {
      std::int32_t dot = 0;
      for (Eigen::Index g = 0; g < p.groups; ++g) {
        for (int t = 0; t < 4; ++t) dot += std::int32_t{x[4 * g + t]} * std::int32_t{w[(g * kWidth + j) * 4 + t]};
      }
      y[j] = std::fma(static_cast<float>(dot), p.row_scales[r] * p.scales[j], p.bias[j]);
    }
  }
}

void panel_product_avx2(const PanelProduct& p) {
  const int halves = p.columns > 16 ? 2 : 1;
  for (int half = 0; half < halves; ++half) over_row_tiles<Avx2Tile, kAvx2Rows>(p.rows, p, half);
}

void panel_product_avx_vnni(const PanelProduct& p) {
  const int halves = p.columns > 16 ? 2 : 1;
  for (int half = 0; half < halves; ++half) over_row_tiles<AvxVnniTile, kAvx2Rows>(p.rows, p, half);
}

void panel_product_avx512_vnni(const PanelProduct& p) { over_row_tiles<Avx512VnniTile, kAvx512Rows>(p.rows, p); }

bool cpu_runs_avx512_vnni() { return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni"); }

bool cpu_runs_avx_vnni() {
  // GCC 12's __builtin_cpu_supports does not report AVX-VNNI: CPUID leaf 7, subleaf 1, EAX bit 4.
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  const bool listed = __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) != 0 && (eax & (1U << 4)) != 0;
  return listed && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

}  // namespace claimrag::pretrained::int8

namespace claimrag::pretrained {

std::string int8_kernel_name(Int8Kernel kernel) {
  switch (kernel) {
    case Int8Kernel::scalar: return "scalar";
    case Int8Kernel::avx2: return "avx2";
    case Int8Kernel::avx_vnni: return "avx-vnni";
    case Int8Kernel::avx512_vnni: return "avx512-vnni";
  }
  return "unknown";
}

}  // namespace claimrag::pretrained
