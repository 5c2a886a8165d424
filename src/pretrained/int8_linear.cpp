#include "claimrag/pretrained/int8_linear.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/int8_kernels.hpp"
#include "claimrag/pretrained/int8_rows.hpp"
#include "claimrag/kernels/vector_unit.hpp"

namespace claimrag::pretrained {
namespace {

constexpr Eigen::Index kWidth = PackedLinear::kPanelWidth;
// |x · w| ≤ 127 · 127 per input, summed exactly in int32 (the VNNI kernel's unsigned activations
// reach 255 · 127 before their correction).
constexpr Eigen::Index kMostInputs = std::numeric_limits<std::int32_t>::max() / (255 * 127);

bool reads_shifted_activations(Int8Kernel kernel) { return kernel == Int8Kernel::avx_vnni || kernel == Int8Kernel::avx512_vnni; }

// Whether CLAIMRAG_INT8_VNNI lets the VNNI kernels run (unset, empty or "on") or not ("off").
bool vnni_allowed() {
  const char* value = std::getenv("CLAIMRAG_INT8_VNNI");
  const std::string text = value == nullptr ? "" : value;
  if (text.empty() || text == "on") return true;
  if (text == "off") return false;
  throw UsageError("CLAIMRAG_INT8_VNNI is '" + text + "' (on or off)");
}

}  // namespace

Int8Kernel Int8Linear::best_kernel() {
  const VectorUnit unit = kernels::best_vector_unit();
  const bool vnni = vnni_allowed();
  if (unit == VectorUnit::avx512 && vnni && int8::cpu_runs_avx512_vnni()) return Int8Kernel::avx512_vnni;
  if (unit == VectorUnit::scalar || !kernels::cpu_runs_avx2()) return Int8Kernel::scalar;
  return vnni && int8::cpu_runs_avx_vnni() ? Int8Kernel::avx_vnni : Int8Kernel::avx2;
}

std::vector<Int8Kernel> Int8Linear::available_kernels() {
  std::vector<Int8Kernel> kernels{Int8Kernel::scalar};
  if (kernels::cpu_runs_avx2()) kernels.push_back(Int8Kernel::avx2);
  if (int8::cpu_runs_avx_vnni()) kernels.push_back(Int8Kernel::avx_vnni);
  if (int8::cpu_runs_avx512_vnni()) kernels.push_back(Int8Kernel::avx512_vnni);
  return kernels;
}

Int8Linear::Int8Linear(const LinearWeights& layer, Int8Kernel kernel)
    : inputs_(layer.weight.cols()), outputs_(layer.weight.rows()), groups_((inputs_ + 3) / 4), kernel_(kernel) {
  const auto kernels = available_kernels();
  if (std::find(kernels.begin(), kernels.end(), kernel) == kernels.end()) {
    throw InternalError("Int8Linear: this CPU does not run the " + int8_kernel_name(kernel) + " int8 kernel");
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
  // Each output's weights as integers, rounded as the activations are (with AVX2 where the CPU
  // has it, the same integers), inputs padded with zeros, padded outputs all zero.
  int8::QuantizedRows weight_rows;
  int8::quantize_signed_rows(layer.weight, kernel_ != Int8Kernel::scalar, weight_rows);
  std::vector<std::int8_t>& quantized = weight_rows.signed8;
  quantized.resize(static_cast<std::size_t>(padded_outputs * padded_inputs), 0);
  for (Eigen::Index j = 0; j < outputs_; ++j) {
    scales_[static_cast<std::size_t>(j)] = weight_rows.scales[static_cast<std::size_t>(j)];
    if (layer.bias.size() != 0) bias_[static_cast<std::size_t>(j)] = layer.bias(0, j);
    std::int32_t sum = 0;
    for (Eigen::Index k = 0; k < inputs_; ++k) sum += quantized[static_cast<std::size_t>(j * padded_inputs + k)];
    shift_corrections_[static_cast<std::size_t>(j)] = 128 * sum;
  }
  // Only VNNI, which multiplies unsigned activations, needs the corrections of their shift.
  if (!reads_shifted_activations(kernel_)) std::vector<std::int32_t>().swap(shift_corrections_);
  const auto q = [&](Eigen::Index j, Eigen::Index k) { return quantized[static_cast<std::size_t>(j * padded_inputs + k)]; };
  if (kernel_ == Int8Kernel::avx2) {
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
  // Each thread keeps its rows' buffers from one product to the next.
  thread_local int8::QuantizedRows rows;
  int8::quantize_rows(x, kernel_, rows);
  int8::PanelProduct product;
  void (*kernel)(const int8::PanelProduct&) = &int8::panel_product_scalar;
  const void* weights = weight8_.data();
  std::size_t element_size = 1;
  switch (kernel_) {
    case Int8Kernel::scalar: break;
    case Int8Kernel::avx2:
      kernel = &int8::panel_product_avx2;
      weights = weight16_.data();
      element_size = sizeof(std::int16_t);
      break;
    case Int8Kernel::avx_vnni: kernel = &int8::panel_product_avx_vnni; break;
    case Int8Kernel::avx512_vnni: kernel = &int8::panel_product_avx512_vnni; break;
  }
  product.x = rows.data(kernel_);
  product.x_stride = padded_inputs;
  product.rows = x.rows();
  product.row_scales = rows.scales.data();
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
