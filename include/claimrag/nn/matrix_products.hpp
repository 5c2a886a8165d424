#pragma once
// The matrix products of the layers claimrag trains. In float (what every model trains in) they
// run on claimrag's own kernels (kernels/products.hpp): each output one chain of fused
// multiply-adds in the order of the shared dimension, so the same bytes on every CPU and vector
// unit, and several times the speed of Eigen's products compiled for baseline x86-64. In double
// (the gradient checks) they run on Eigen.

#include <type_traits>
#include <utility>

#include <Eigen/Core>

#include "claimrag/kernels/products.hpp"

namespace claimrag::nn {

using kernels::Operand;
using kernels::Start;

/// c = [c +] op(a) · op(b) for row-major blocks; c must already have its shape and must not
/// overlap a or b.
template <typename Left, typename Right, typename Out>
void multiply(const Eigen::MatrixBase<Left>& a, Operand a_form, const Eigen::MatrixBase<Right>& b, Operand b_form,
              Out&& c, Start start) {
  using Scalar = typename Left::Scalar;
  if constexpr (std::is_same_v<Scalar, float>) {
    kernels::multiply(a.derived(), a_form, b.derived(), b_form, std::forward<Out>(c), start);
  } else {
    const auto assign = [&](const auto& left, const auto& right) {
      if (start == Start::zero) {
        c.noalias() = left * right;
      } else {
        c.noalias() += left * right;
      }
    };
    const bool left_plain = a_form == Operand::plain, right_plain = b_form == Operand::plain;
    if (left_plain && right_plain) assign(a.derived(), b.derived());
    if (left_plain && !right_plain) assign(a.derived(), b.derived().transpose());
    if (!left_plain && right_plain) assign(a.derived().transpose(), b.derived());
    if (!left_plain && !right_plain) assign(a.derived().transpose(), b.derived().transpose());
  }
}

}  // namespace claimrag::nn
