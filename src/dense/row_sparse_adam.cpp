#include "claimrag/dense/row_sparse_adam.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>
#include <type_traits>

#include "claimrag/error.hpp"
#include "claimrag/kernels/adam_update.hpp"

namespace claimrag::dense {

// Each run at most kMaxRows long, so that the threads still share the work when every row is a
// run of its own.
template <typename Scalar>
std::vector<typename RowSparseAdam<Scalar>::RowSpan> RowSparseAdam<Scalar>::consecutive_spans(const std::vector<std::int32_t>& rows) {
  constexpr Eigen::Index kMaxRows = 256;
  std::vector<RowSpan> spans;
  for (const std::int32_t row : rows) {
    if (!spans.empty() && spans.back().first + spans.back().count == row && spans.back().count < kMaxRows) {
      ++spans.back().count;
    } else {
      spans.push_back({row, 1});
    }
  }
  return spans;
}

template <typename Scalar>
RowSparseAdam<Scalar>::RowSparseAdam(nn::ParameterRegistry<Scalar>& registry, nn::AdamOptions options)
    : registry_(registry), options_(options) {
  if (options_.weight_decay != 0.0) {
    throw UsageError("row-sparse Adam needs weight_decay = 0 (a decay term moves every row)");
  }
  for (std::size_t i = 0; i < registry_.size(); ++i) {
    const auto& value = registry_[i].value;
    const auto entries = static_cast<std::size_t>(value.size());
    for (auto* moments : {&first_moment_, &second_moment_}) {
      auto* buffer = static_cast<Scalar*>(std::calloc(std::max<std::size_t>(entries, 1), sizeof(Scalar)));
      if (buffer == nullptr) throw std::bad_alloc();
      moments->emplace_back(buffer);
    }
    active_.emplace_back();
    is_active_.emplace_back(static_cast<std::size_t>(value.rows()), 0);
    pending_.emplace_back();
    is_pending_.emplace_back(static_cast<std::size_t>(value.rows()), 0);
    unsorted_.push_back(0);
    spans_.emplace_back();
  }
}

template <typename Scalar>
void RowSparseAdam<Scalar>::mark_rows(std::size_t parameter, std::span<const std::int32_t> rows) {
  auto& active = is_active_.at(parameter);
  auto& pending = is_pending_[parameter];
  for (const std::int32_t row : rows) {
    if (row < 0 || static_cast<std::size_t>(row) >= active.size()) {
      throw InternalError("RowSparseAdam::mark_rows: row " + std::to_string(row) + " out of range");
    }
    const auto r = static_cast<std::size_t>(row);
    if (!pending[r]) {
      pending[r] = 1;
      pending_[parameter].push_back(row);
    }
    if (!active[r]) {
      active[r] = 1;
      active_[parameter].push_back(row);
      unsorted_[parameter] = 1;
    }
  }
}

template <typename Scalar>
void RowSparseAdam<Scalar>::mark_all_rows(std::size_t parameter) {
  std::vector<std::int32_t> rows(is_active_.at(parameter).size());
  for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = static_cast<std::int32_t>(r);
  mark_rows(parameter, rows);
}

template <typename Scalar>
void RowSparseAdam<Scalar>::step() {
  ++step_;
  // The constants are computed exactly as nn::Adam computes them, so that the updates agree
  // bit for bit.
  const auto beta1 = static_cast<Scalar>(options_.beta1);
  const auto beta2 = static_cast<Scalar>(options_.beta2);
  const auto epsilon = static_cast<Scalar>(options_.epsilon);
  const double correction1 = 1.0 - std::pow(options_.beta1, static_cast<double>(step_));
  const double correction2 = 1.0 - std::pow(options_.beta2, static_cast<double>(step_));
  const auto step_size = static_cast<Scalar>(options_.learning_rate / correction1);
  const auto root_correction2 = static_cast<Scalar>(std::sqrt(correction2));
  for (std::size_t i = 0; i < registry_.size(); ++i) {
    if (unsorted_[i]) {
      std::sort(active_[i].begin(), active_[i].end());
      spans_[i] = consecutive_spans(active_[i]);
      unsorted_[i] = 0;
    }
    auto& parameter = registry_[i];
    const std::vector<RowSpan>& spans = spans_[i];
    Scalar* first = first_moment_[i].get();
    Scalar* second = second_moment_[i].get();
    const Eigen::Index cols = parameter.value.cols();
    // Forking threads costs more than updating fewer than about a million entries.
    const bool large = static_cast<double>(active_[i].size()) * static_cast<double>(cols) >= 1 << 20;
#pragma omp parallel for schedule(static) if (large)
    for (std::ptrdiff_t k = 0; k < static_cast<std::ptrdiff_t>(spans.size()); ++k) {
      const RowSpan& span = spans[static_cast<std::size_t>(k)];
      const Eigen::Index offset = span.first * cols;
      const Eigen::Index entries = span.count * cols;
      if constexpr (std::is_same_v<Scalar, float>) {
        // On the widest vector unit, every operation correctly rounded (Eigen's vectorised float
        // square root is an approximation whose last bits depend on the CPU's maker).
        const kernels::AdamStep constants{beta1, beta2, step_size, root_correction2, epsilon, 0.0F, false};
        kernels::adam_update(constants, parameter.value.data() + offset, first + offset, second + offset,
                             parameter.grad.data() + offset, static_cast<std::size_t>(entries));
      } else {
        auto gradient = Eigen::Map<const nn::RowVector<Scalar>>(parameter.grad.data() + offset, entries).array();
        auto m = Eigen::Map<nn::RowVector<Scalar>>(first + offset, entries).array();
        auto v = Eigen::Map<nn::RowVector<Scalar>>(second + offset, entries).array();
        m = beta1 * m + (Scalar(1) - beta1) * gradient;
        v = beta2 * v + (Scalar(1) - beta2) * gradient.square();
        Eigen::Map<nn::RowVector<Scalar>>(parameter.value.data() + offset, entries).array() -=
            step_size * m / (v.sqrt() / root_correction2 + epsilon);
      }
    }
  }
}

template <typename Scalar>
void RowSparseAdam<Scalar>::zero_grad() {
  for (std::size_t i = 0; i < registry_.size(); ++i) {
    auto& grad = registry_[i].grad;
    for (const std::int32_t r : pending_[i]) {
      grad.row(r).setZero();
      is_pending_[i][static_cast<std::size_t>(r)] = 0;
    }
    pending_[i].clear();
  }
}

template class RowSparseAdam<float>;
template class RowSparseAdam<double>;

}  // namespace claimrag::dense
