#pragma once
// Eigen's multi-threaded matrix products split their sums by the thread count, so their last bits
// depend on it. Code that must give the same bytes for any thread count, and whose products are
// too small to gain from threads, runs them single-threaded while this guard lives.

#include <omp.h>

#include <Eigen/Core>

namespace claimrag {

/// Sets Eigen to one thread; restores the previous count on destruction. Inside an OpenMP parallel
/// region it does nothing: Eigen's products already run on one thread there, and the count is one
/// process-wide setting that threads setting and restoring at once would race on.
class SequentialEigenProducts {
 public:
  SequentialEigenProducts() : active_(omp_in_parallel() == 0), saved_(active_ ? Eigen::nbThreads() : 1) {
    if (active_) Eigen::setNbThreads(1);
  }
  ~SequentialEigenProducts() {
    if (active_) Eigen::setNbThreads(saved_);
  }
  SequentialEigenProducts(const SequentialEigenProducts&) = delete;
  SequentialEigenProducts& operator=(const SequentialEigenProducts&) = delete;

 private:
  bool active_;
  int saved_;
};

}  // namespace claimrag
