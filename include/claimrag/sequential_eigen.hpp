#pragma once
// Eigen's multi-threaded matrix products split their sums by the thread count, so their last bits
// depend on it. Code that must give the same bytes for any thread count, and whose products are
// too small to gain from threads, runs them single-threaded while this guard lives.

#include <Eigen/Core>

namespace claimrag {

/// Sets Eigen to one thread; restores the previous count on destruction.
class SequentialEigenProducts {
 public:
  SequentialEigenProducts() : saved_(Eigen::nbThreads()) { Eigen::setNbThreads(1); }
  ~SequentialEigenProducts() { Eigen::setNbThreads(saved_); }
  SequentialEigenProducts(const SequentialEigenProducts&) = delete;
  SequentialEigenProducts& operator=(const SequentialEigenProducts&) = delete;

 private:
  int saved_;
};

}  // namespace claimrag
