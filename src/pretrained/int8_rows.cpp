#include "claimrag/pretrained/int8_rows.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

// The scalar loops are the definition; the AVX2 loops (used by every vector kernel, all of which
// need AVX2) do the same operations 8 floats at a time: |x| and its maximum are exact, the product
// by the inverse scale is one IEEE multiplication, _MM_FROUND_TO_NEAREST_INT is nearbyint's
// rounding in the default mode, and the clamp to ±127 is a min and a max.

namespace claimrag::pretrained::int8 {
namespace {

constexpr Eigen::Index kGroup = 4;

int shift_of(Int8Kernel kernel) { return kernel == Int8Kernel::avx_vnni || kernel == Int8Kernel::avx512_vnni ? 128 : 0; }

float largest_magnitude(const float* x, Eigen::Index n, bool& finite) {
  float largest = 0.0F;
  finite = true;
  for (Eigen::Index k = 0; k < n; ++k) {
    finite = finite && std::isfinite(x[k]);
    largest = std::max(largest, std::abs(x[k]));
  }
  return largest;
}

template <typename Stored>
void quantize_scalar(const float* x, Eigen::Index begin, Eigen::Index n, float inverse, int shift, Stored* out) {
  for (Eigen::Index k = begin; k < n; ++k) {
    const float scaled = std::clamp(std::nearbyint(x[k] * inverse), -127.0F, 127.0F);
    out[k] = static_cast<Stored>(static_cast<int>(scaled) + shift);
  }
}

__attribute__((target("avx2"))) float largest_magnitude_avx2(const float* x, Eigen::Index n, bool& finite) {
  const __m256 sign = _mm256_set1_ps(-0.0F);
  __m256 largest = _mm256_setzero_ps();
  __m256 unordered = _mm256_setzero_ps();
  Eigen::Index k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m256 v = _mm256_loadu_ps(x + k);
    // x · 0 is NaN exactly when x is NaN or infinite.
    unordered = _mm256_or_ps(unordered, _mm256_cmp_ps(_mm256_mul_ps(v, _mm256_setzero_ps()), _mm256_setzero_ps(), _CMP_NEQ_UQ));
    largest = _mm256_max_ps(largest, _mm256_andnot_ps(sign, v));
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, largest);
  bool tail_finite = true;
  float result = largest_magnitude(x + k, n - k, tail_finite);
  for (const float lane : lanes) result = std::max(result, lane);
  finite = tail_finite && _mm256_movemask_ps(unordered) == 0;
  return result;
}

// 8 floats to 8 int32 holding the clamped nearest integers of x · inverse, plus shift.
__attribute__((target("avx2"))) inline __m256i quantize8(const float* x, __m256 inverse, __m256i shift) {
  const __m256 scaled = _mm256_round_ps(_mm256_mul_ps(_mm256_loadu_ps(x), inverse), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 clamped = _mm256_min_ps(_mm256_max_ps(scaled, _mm256_set1_ps(-127.0F)), _mm256_set1_ps(127.0F));
  return _mm256_add_epi32(_mm256_cvttps_epi32(clamped), shift);
}

// 16 values as int16 in order (packs interleaves the 128-bit lanes; the permutation undoes it).
__attribute__((target("avx2"))) inline __m256i quantize16(const float* x, __m256 inverse, __m256i shift) {
  return _mm256_permute4x64_epi64(_mm256_packs_epi32(quantize8(x, inverse, shift), quantize8(x + 8, inverse, shift)), 0xD8);
}

template <typename Stored>
__attribute__((target("avx2"))) void quantize_avx2(const float* x, Eigen::Index n, float inverse_scale, int shift_value, Stored* out) {
  const __m256 inverse = _mm256_set1_ps(inverse_scale);
  const __m256i shift = _mm256_set1_epi32(shift_value);
  Eigen::Index k = 0;
  if constexpr (sizeof(Stored) == 2) {
    for (; k + 16 <= n; k += 16) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + k), quantize16(x + k, inverse, shift));
  } else {
    for (; k + 32 <= n; k += 32) {
      const __m256i low = quantize16(x + k, inverse, shift);
      const __m256i high = quantize16(x + k + 16, inverse, shift);
      // Shifted values lie in 1..255 (unsigned saturation keeps them), signed ones in ±127.
      const __m256i bytes = shift_value != 0 ? _mm256_packus_epi16(low, high) : _mm256_packs_epi16(low, high);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + k), _mm256_permute4x64_epi64(bytes, 0xD8));
    }
  }
  quantize_scalar(x, k, n, inverse_scale, shift_value, out);
}

template <typename Stored>
void quantize_into(const ConstRowBlock& x, bool vector, int shift, std::vector<Stored>& values, QuantizedRows& rows) {
  const Eigen::Index n = x.cols();
  values.assign(static_cast<std::size_t>(x.rows() * rows.stride), static_cast<Stored>(shift));
  rows.scales.assign(static_cast<std::size_t>(x.rows()), 0.0F);
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const float* row = x.data() + r * x.outerStride();
    bool finite = true;
    const float largest = vector ? largest_magnitude_avx2(row, n, finite) : largest_magnitude(row, n, finite);
    // A row with NaN or infinity gets a NaN scale, so its outputs are NaN and the model's
    // finite-output check reports it.
    if (!finite) {
      rows.scales[static_cast<std::size_t>(r)] = std::numeric_limits<float>::quiet_NaN();
      continue;
    }
    if (largest == 0.0F) continue;
    rows.scales[static_cast<std::size_t>(r)] = largest / 127.0F;
    const float inverse = 127.0F / largest;
    Stored* out = values.data() + r * rows.stride;
    if (vector) {
      quantize_avx2(row, n, inverse, shift, out);
    } else {
      quantize_scalar(row, 0, n, inverse, shift, out);
    }
  }
}

}  // namespace

const void* QuantizedRows::data(Int8Kernel kernel) const {
  switch (kernel) {
    case Int8Kernel::scalar: return signed8.data();
    case Int8Kernel::avx2: return widened16.data();
    case Int8Kernel::avx_vnni:
    case Int8Kernel::avx512_vnni: return shifted8.data();
  }
  return nullptr;
}

void quantize_rows(const ConstRowBlock& x, Int8Kernel kernel, QuantizedRows& rows) {
  rows.stride = (x.cols() + kGroup - 1) / kGroup * kGroup;
  const bool vector = kernel != Int8Kernel::scalar;
  switch (kernel) {
    case Int8Kernel::scalar: quantize_into(x, vector, 0, rows.signed8, rows); break;
    case Int8Kernel::avx2: quantize_into(x, vector, 0, rows.widened16, rows); break;
    case Int8Kernel::avx_vnni:
    case Int8Kernel::avx512_vnni: quantize_into(x, vector, shift_of(kernel), rows.shifted8, rows); break;
  }
}

void quantize_signed_rows(const ConstRowBlock& x, bool vector, QuantizedRows& rows) {
  rows.stride = (x.cols() + kGroup - 1) / kGroup * kGroup;
  quantize_into(x, vector, 0, rows.signed8, rows);
}

}  // namespace claimrag::pretrained::int8
