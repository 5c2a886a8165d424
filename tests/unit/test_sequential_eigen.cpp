// SequentialEigenProducts: one thread for Eigen's products while it lives, restored after; inside
// an OpenMP parallel region it leaves the process-wide count alone.
#include <gtest/gtest.h>

#include <omp.h>

#include <optional>

#include <Eigen/Core>

#include "claimrag/sequential_eigen.hpp"

TEST(SequentialEigenProducts, OneThreadWhileItLivesThenTheFormerCount) {
  const int before = Eigen::nbThreads();
  Eigen::setNbThreads(2);
  {
    const claimrag::SequentialEigenProducts sequential;
    EXPECT_EQ(Eigen::nbThreads(), 1);
  }
  EXPECT_EQ(Eigen::nbThreads(), 2);
  Eigen::setNbThreads(before);
}

// Two threads make and drop guards interleaved: A makes, B makes, A drops, B drops. Had each
// saved and restored the process-wide count, B would save A's 1 and restore it last.
TEST(SequentialEigenProducts, InsideAParallelRegionItLeavesTheCountAlone) {
  const int before = Eigen::nbThreads();
  Eigen::setNbThreads(2);
  int team = 0;
#pragma omp parallel num_threads(2)
  {
    const int me = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    std::optional<claimrag::SequentialEigenProducts> guard;
    if (me == 0) guard.emplace();
#pragma omp barrier
    if (me == 1) guard.emplace();
#pragma omp barrier
    if (me == 0) guard.reset();
#pragma omp barrier
    if (me == 1) guard.reset();
  }
  EXPECT_EQ(team, 2);
  EXPECT_EQ(Eigen::nbThreads(), 2);
  Eigen::setNbThreads(before);
}
