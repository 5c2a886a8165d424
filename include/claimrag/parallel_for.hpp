#pragma once
// A parallel loop whose failures read the same whatever the thread count.

#include <cstddef>
#include <exception>
#include <vector>

namespace claimrag {

/// Runs body(k) for k in [0, count) on the OpenMP threads, in any order, and rethrows the
/// exception of the lowest failing k (so a failure reads the same for any thread count). Inside
/// the parallel region Eigen runs its products single-threaded, so each body computes the same
/// bytes whatever the thread count.
template <typename Body>
void parallel_for(std::size_t count, Body&& body) {
  std::vector<std::exception_ptr> errors(count);
  const auto n = static_cast<std::ptrdiff_t>(count);
#pragma omp parallel for schedule(dynamic)
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    try {
      body(static_cast<std::size_t>(k));
    } catch (...) {
      errors[static_cast<std::size_t>(k)] = std::current_exception();
    }
  }
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

/// The shares a corpus is counted in by parallel_for_shares: a fixed number, not the thread
/// count, so that the ranges, and anything merged from them, are the same on any machine.
inline constexpr std::size_t kCountingShares = 4;

/// Splits [0, count) into `shares` consecutive ranges of near-equal size and runs
/// body(share, begin, end) for each on the threads (parallel_for's order and failures): for work
/// whose per-range results are merged afterwards, in share order.
template <typename Body>
void parallel_for_shares(std::size_t count, std::size_t shares, Body&& body) {
  parallel_for(shares, [&](std::size_t share) { body(share, share * count / shares, (share + 1) * count / shares); });
}

}  // namespace claimrag
