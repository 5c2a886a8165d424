#include "claimrag/kernels/products.hpp"

#include <algorithm>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/kernels/panel_product.hpp"
#include "claimrag/kernels/panels.hpp"

namespace claimrag::kernels {
namespace {

// A buffer each thread keeps between products, grown to the largest request: the trainers call
// thousands of small products per epoch, and allocating for each would cost more than packing.
class Scratch {
 public:
  float* floats(std::size_t count) {
    if (count > capacity_) {
      data_ = allocate_aligned(count);
      capacity_ = count;
    }
    return data_.get();
  }

 private:
  AlignedFloats data_;
  std::size_t capacity_ = 0;
};

thread_local Scratch packed_right;
thread_local Scratch start_row;

std::string shape_of(Eigen::Index rows, Eigen::Index cols) { return std::to_string(rows) + "×" + std::to_string(cols); }

// The panels of op(b) (depth × outputs), in this thread's buffer.
const float* pack_right(const ConstBlock& b, Operand form, Eigen::Index depth, Eigen::Index outputs) {
  float* packed = packed_right.floats(static_cast<std::size_t>(panel_count(outputs) * depth * kPanelWidth));
  pack_panels(b.data(), b.outerStride(),
              form == Operand::plain ? PanelSource::inputs_by_rows : PanelSource::outputs_by_rows, depth, outputs,
              packed);
  return packed;
}

// The chains' starting row: the bias (or zeros) padded to whole panels.
const float* start_values(const float* bias, Eigen::Index outputs) {
  const Eigen::Index padded = panel_count(outputs) * kPanelWidth;
  float* row = start_row.floats(static_cast<std::size_t>(padded));
  for (Eigen::Index j = 0; j < padded; ++j) row[j] = bias != nullptr && j < outputs ? bias[j] : 0.0F;
  return row;
}

// Where op(a)'s element (row r, input k) lies: a itself is read along its rows, a transpose along
// its columns, in place (a copy would write a whole column per input, one cache line each).
struct LeftRows {
  const float* data;
  std::ptrdiff_t row_stride;
  std::ptrdiff_t depth_stride;
};

LeftRows left_rows(const ConstBlock& a, Operand form) {
  if (form == Operand::plain) return {a.data(), a.outerStride(), 1};
  return {a.data(), 1, a.outerStride()};
}

void run(const ConstBlock& a, Operand a_form, const ConstBlock& b, Operand b_form, Block& c, const float* bias,
         bool from_output, VectorUnit unit) {
  const Eigen::Index rows = a_form == Operand::plain ? a.rows() : a.cols();
  const Eigen::Index depth = a_form == Operand::plain ? a.cols() : a.rows();
  const Eigen::Index b_depth = b_form == Operand::plain ? b.rows() : b.cols();
  const Eigen::Index outputs = b_form == Operand::plain ? b.cols() : b.rows();
  if (depth != b_depth || c.rows() != rows || c.cols() != outputs) {
    throw InternalError("kernels::multiply: shapes " + shape_of(rows, depth) + " · " + shape_of(b_depth, outputs) +
                        " into " + shape_of(c.rows(), c.cols()));
  }
  if (rows == 0 || outputs == 0) return;
  const LeftRows left = left_rows(a, a_form);
  LayerProduct product;
  product.first.x = left.data;
  product.first.x_stride = left.row_stride;
  product.first.x_depth_stride = left.depth_stride;
  product.first.rows = rows;
  product.first.panel = pack_right(b, b_form, depth, outputs);
  product.first.bias = from_output ? nullptr : start_values(bias, outputs);  // the chains start from c itself
  product.first.depth = depth;
  product.first.y = c.data();
  product.first.y_stride = c.outerStride();
  product.first.start_from_output = from_output;
  product.panels = panel_count(outputs);
  product.outputs = outputs;
  layer_product(product, unit);
}

}  // namespace

void multiply(const ConstBlock& a, Operand a_form, const ConstBlock& b, Operand b_form, Block c, Start start,
              VectorUnit unit) {
  run(a, a_form, b, b_form, c, nullptr, start == Start::output, unit);
}

void multiply(const ConstBlock& a, Operand a_form, const ConstBlock& b, Operand b_form, Block c, Start start) {
  multiply(a, a_form, b, b_form, c, start, best_vector_unit());
}

void multiply_add_bias(const ConstBlock& a, const ConstBlock& b, const ConstBlock& bias, Block c) {
  if (bias.rows() != 1 || bias.cols() != b.cols()) {
    throw InternalError("kernels::multiply_add_bias: a bias of " + shape_of(bias.rows(), bias.cols()) + " for " +
                        std::to_string(b.cols()) + " outputs");
  }
  run(a, Operand::plain, b, Operand::plain, c, bias.data(), false, best_vector_unit());
}

}  // namespace claimrag::kernels
