#pragma once
// Matrix products of float blocks on claimrag's own kernels, for the models it trains: every
// output element is one chain of fused multiply-adds over the shared dimension in its order,
// started from zero, from a bias or from the value the output already holds. So a product gives
// the same bytes on every vector unit (AVX-512, AVX2, the portable scalar code), whatever the
// shapes, the thread running it or the rows it is computed with, which Eigen's blocked products
// (compiled for baseline x86-64, and blocked by size) do not promise beyond one build and one CPU.
// The right-hand operand is packed into panels on every call, into a buffer the thread keeps.

#include <Eigen/Core>

#include "claimrag/kernels/vector_unit.hpp"

namespace claimrag::kernels {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
/// A row-major float block read in place (a whole matrix, or rows and columns of one).
using ConstBlock = Eigen::Ref<const RowMatrix, 0, Eigen::OuterStride<>>;
/// A row-major float block written in place.
using Block = Eigen::Ref<RowMatrix, 0, Eigen::OuterStride<>>;

/// Whether an operand enters the product as given or transposed.
enum class Operand { plain, transposed };

/// Where each output's chain starts.
enum class Start {
  zero,    ///< c = op(a) · op(b)
  output,  ///< c += op(a) · op(b), added into the chain, one rounding per multiply-add
};

/// c (m × n) = [c +] op(a) (m × k) · op(b) (k × n), on the best vector unit. c must already have
/// its shape and must not overlap a or b.
void multiply(const ConstBlock& a, Operand a_form, const ConstBlock& b, Operand b_form, Block c, Start start);

/// The same on a chosen unit (one of available_vector_units()).
void multiply(const ConstBlock& a, Operand a_form, const ConstBlock& b, Operand b_form, Block c, Start start,
              VectorUnit unit);

/// c (m × n) = a (m × k) · b (k × n) + bias (1 × n): every chain starts from its column's bias.
void multiply_add_bias(const ConstBlock& a, const ConstBlock& b, const ConstBlock& bias, Block c);

}  // namespace claimrag::kernels
