#include "claimrag/pretrained/int8_linear.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/int8_kernels.hpp"
#include "claimrag/kernels/vector_unit.hpp"

namespace claimrag::pretrained {
namespace {

constexpr Eigen::Index kWidth = PackedLinear::kPanelWidth;
// |x · w| ≤ 127 · 127 per input, summed exactly in int32 (the VNNI kernel's unsigned activations
// reach 255 · 127 before their correction).
constexpr Eigen::Index kMostInputs = std::numeric_limits<std::int32_t>::max() / (255 * 127);

// The nearest integer of value / scale, through the same float operations on every CPU.
std::int8_t quantize(float value, float inverse_scale) {
  const float scaled = std::nearbyint(value * inverse_scale);
  return static_cast<std::int8_t>(std::clamp(scaled, -127.0F, 127.0F));
}

// Each row's activations as integers, written straight in the form a unit reads (Stored: int8,
// int16, or uint8 with `shift` 128 for VNNI's unsigned operand), padded with the shifted zero to
// whole groups, and each row's scale. A row with NaN or infinity gets a NaN scale, so its outputs
// are NaN and the model's finite-output check reports it.
template <typename Stored>
std::vector<Stored> quantize_rows(const ConstRowBlock& x, Eigen::Index padded, int shift, std::vector<float>& scales) {
  std::vector<Stored> values(static_cast<std::size_t>(x.rows() * padded), static_cast<Stored>(shift));
  scales.assign(static_cast<std::size_t>(x.rows()), 0.0F);
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    float largest = 0.0F;
    for (Eigen::Index k = 0; k < x.cols(); ++k) largest = std::max(largest, std::abs(x(r, k)));
    if (!std::isfinite(largest)) {
      scales[static_cast<std::size_t>(r)] = std::numeric_limits<float>::quiet_NaN();
      continue;
    }
    if (largest == 0.0F) continue;
    scales[static_cast<std::size_t>(r)] = largest / 127.0F;
    const float inverse = 127.0F / largest;
    Stored* row = values.data() + r * padded;
    for (Eigen::Index k = 0; k < x.cols(); ++k) row[k] = static_cast<Stored>(quantize(x(r, k), inverse) + shift);
  }
  return values;
}

}  // namespace

VectorUnit Int8Linear::best_int8_unit() {
  // The fastest int8 unit that is not faster than the float products' unit, so that forcing
  // CLAIMRAG_VECTOR_UNIT holds for int8 too (AVX-512 without VNNI runs int8 on AVX2).
  const auto units = available_int8_units();
  VectorUnit best = VectorUnit::scalar;
  for (const VectorUnit unit : units) {
    if (unit <= kernels::best_vector_unit()) best = unit;
  }
  return best;
}

std::vector<VectorUnit> Int8Linear::available_int8_units() {
  std::vector<VectorUnit> units{VectorUnit::scalar};
  if (kernels::cpu_runs_avx2()) units.push_back(VectorUnit::avx2);
  if (int8::cpu_runs_avx512_vnni()) units.push_back(VectorUnit::avx512);
  return units;
}

Int8Linear::Int8Linear(const LinearWeights& layer, VectorUnit unit)
    : inputs_(layer.weight.cols()), outputs_(layer.weight.rows()), groups_((inputs_ + 3) / 4), unit_(unit) {
  const auto units = available_int8_units();
  if (std::find(units.begin(), units.end(), unit) == units.end()) {
    throw InternalError("Int8Linear: this CPU does not run " + vector_unit_name(unit) + " for int8 products");
  }
  if (inputs_ > kMostInputs) {
    throw UsageError("int8 precision sums at most " + std::to_string(kMostInputs) + " inputs exactly; this layer has " +
                     std::to_string(inputs_));
  }
  const Eigen::Index panels = (outputs_ + kWidth - 1) / kWidth;
  const Eigen::Index padded_outputs = panels * kWidth;
  const Eigen::Index padded_inputs = groups_ * 4;
  scales_.assign(static_cast<std::size_t>(padded_outputs), 0.0F);
  bias_.assign(static_cast<std::size_t>(padded_outputs), 0.0F);
  shift_corrections_.assign(static_cast<std::size_t>(padded_outputs), 0);
  // Each output's weights as integers, inputs padded with zeros.
  std::vector<std::int8_t> quantized(static_cast<std::size_t>(padded_outputs * padded_inputs), 0);
  for (Eigen::Index j = 0; j < outputs_; ++j) {
    float largest = 0.0F;
    for (Eigen::Index k = 0; k < inputs_; ++k) largest = std::max(largest, std::abs(layer.weight(j, k)));
    if (layer.bias.size() != 0) bias_[static_cast<std::size_t>(j)] = layer.bias(0, j);
    if (largest == 0.0F) continue;
    scales_[static_cast<std::size_t>(j)] = largest / 127.0F;
    const float inverse = 127.0F / largest;
    for (Eigen::Index k = 0; k < inputs_; ++k) {
      const std::int8_t q = quantize(layer.weight(j, k), inverse);
      quantized[static_cast<std::size_t>(j * padded_inputs + k)] = q;
      shift_corrections_[static_cast<std::size_t>(j)] += 128 * q;
    }
  }
  // Only VNNI, which multiplies unsigned activations, needs the corrections of their shift.
  if (unit_ != VectorUnit::avx512) std::vector<std::int32_t>().swap(shift_corrections_);
  const auto q = [&](Eigen::Index j, Eigen::Index k) { return quantized[static_cast<std::size_t>(j * padded_inputs + k)]; };
  if (unit_ == VectorUnit::avx2) {
    // Per panel, per pair of inputs: 32 outputs × 2 int16.
    weight16_.resize(static_cast<std::size_t>(padded_outputs * padded_inputs));
    std::size_t at = 0;
    for (Eigen::Index p = 0; p < panels; ++p) {
      for (Eigen::Index k = 0; k < padded_inputs; k += 2) {
        for (Eigen::Index j = p * kWidth; j < (p + 1) * kWidth; ++j) {
          weight16_[at++] = q(j, k);
          weight16_[at++] = q(j, k + 1);
        }
      }
    }
  } else {
    // Per panel, per group of 4 inputs: 32 outputs × 4 int8.
    weight8_.resize(static_cast<std::size_t>(padded_outputs * padded_inputs));
    std::size_t at = 0;
    for (Eigen::Index p = 0; p < panels; ++p) {
      for (Eigen::Index k = 0; k < padded_inputs; k += 4) {
        for (Eigen::Index j = p * kWidth; j < (p + 1) * kWidth; ++j) {
          for (Eigen::Index t = 0; t < 4; ++t) weight8_[at++] = q(j, k + t);
        }
      }
    }
  }
}

std::size_t Int8Linear::bytes() const {
  return weight8_.size() + weight16_.size() * sizeof(std::int16_t) + shift_corrections_.size() * sizeof(std::int32_t) +
         (scales_.size() + bias_.size()) * sizeof(float);
}

void Int8Linear::apply(const ConstRowBlock& x, nn::Matrix<float>& y) const {
  if (x.cols() != inputs_) {
    throw InternalError("Int8Linear: " + std::to_string(x.cols()) + " inputs for a layer of " + std::to_string(inputs_));
  }
  y.resize(x.rows(), outputs_);
  if (x.rows() == 0 || outputs_ == 0) return;
  const Eigen::Index padded_inputs = groups_ * 4;
  std::vector<float> row_scales;
  // The same integers in each unit's form: int8 for the scalar code, shifted to unsigned for VNNI,
  // int16 pairs for AVX2 (each vector keeps its buffer alive through the products below).
  std::vector<std::int8_t> values8;
  std::vector<std::uint8_t> shifted;
  std::vector<std::int16_t> widened;
  int8::PanelProduct product;
  void (*kernel)(const int8::PanelProduct&) = &int8::panel_product_scalar;
  const void* weights = weight8_.data();
  std::size_t element_size = 1;
  switch (unit_) {
    case VectorUnit::scalar:
      values8 = quantize_rows<std::int8_t>(x, padded_inputs, 0, row_scales);
      product.x = values8.data();
      break;
    case VectorUnit::avx512:
      shifted = quantize_rows<std::uint8_t>(x, padded_inputs, 128, row_scales);
      product.x = shifted.data();
      kernel = &int8::panel_product_avx512_vnni;
      break;
    case VectorUnit::avx2:
      widened = quantize_rows<std::int16_t>(x, padded_inputs, 0, row_scales);
      product.x = widened.data();
      kernel = &int8::panel_product_avx2;
      weights = weight16_.data();
      element_size = sizeof(std::int16_t);
      break;
  }
  product.x_stride = padded_inputs;
  product.rows = x.rows();
  product.row_scales = row_scales.data();
  product.groups = groups_;
  product.y_stride = y.outerStride();
  const std::size_t panel_elements = static_cast<std::size_t>(kWidth * padded_inputs);
  const Eigen::Index panels = (outputs_ + kWidth - 1) / kWidth;
  for (Eigen::Index p = 0; p < panels; ++p) {
    product.panel = static_cast<const char*>(weights) + static_cast<std::size_t>(p) * panel_elements * element_size;
    product.shift_corrections = shift_corrections_.data() + p * kWidth;
    product.scales = scales_.data() + p * kWidth;
    product.bias = bias_.data() + p * kWidth;
    product.y = y.data() + p * kWidth;
    product.columns = std::min(kWidth, outputs_ - p * kWidth);
    kernel(product);
  }
}

}  // namespace claimrag::pretrained
