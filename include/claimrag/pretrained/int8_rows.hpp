#pragma once
// The activations of an int8 product: each row rounded to a scale of its largest magnitude / 127,
// written in the form the chosen kernel reads. The vector code and the scalar code do the same
// float operations (an IEEE product, rounding to nearest even, a clamp), so every kernel reads
// the same integers.

#include <cstdint>
#include <vector>

#include "claimrag/pretrained/dense_ops.hpp"
#include "claimrag/pretrained/int8_kernels.hpp"

namespace claimrag::pretrained::int8 {

/// Rows of quantized activations, `stride` elements apart (the inputs padded with the quantized
/// zero to whole groups of 4); only the vector of the kernel's form is filled.
struct QuantizedRows {
  std::vector<std::int8_t> signed8;      ///< scalar kernel
  std::vector<std::uint8_t> shifted8;    ///< VNNI kernels: value + 128
  std::vector<std::int16_t> widened16;   ///< AVX2 16-bit pairs
  std::vector<float> scales;             ///< per row; NaN for a row holding NaN or infinity
  Eigen::Index stride = 0;

  /// The first row in the kernel's form.
  [[nodiscard]] const void* data(Int8Kernel kernel) const;
};

/// Quantizes x [n, in] for `kernel` into `rows` (its buffers reused).
void quantize_rows(const ConstRowBlock& x, Int8Kernel kernel, QuantizedRows& rows);

/// Quantizes x [n, in] into rows.signed8 (a linear layer's weights, one row per output), with
/// AVX2 where `vector` (the same integers).
void quantize_signed_rows(const ConstRowBlock& x, bool vector, QuantizedRows& rows);

}  // namespace claimrag::pretrained::int8
