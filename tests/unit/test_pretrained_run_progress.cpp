// Progress lines of long checkpoint runs: their format, and silence for short runs.

#include <gtest/gtest.h>

#include <chrono>

#include "claimrag/pretrained/run_progress.hpp"
#include "support/captured_log.hpp"

namespace claimrag::pretrained {
namespace {

TEST(PretrainedRunProgress, DurationsReadAsSecondsMinutesHours) {
  EXPECT_EQ(duration_text(0), "0s");
  EXPECT_EQ(duration_text(41.6), "42s");
  EXPECT_EQ(duration_text(190), "3m10s");
  EXPECT_EQ(duration_text(3600 + 125), "1h02m");
  EXPECT_EQ(duration_text(-3), "0s");
}

TEST(PretrainedRunProgress, LogsDoneOfTotalRateAndTimeLeft) {
  const testing::CapturedLog log;
  RunProgress progress("models/x", 400, std::chrono::steady_clock::duration::zero());
  progress.advance(100);
  const std::string text = log.text();
  EXPECT_NE(text.find("[info] models/x: 100 of 400 sequences (25%), "), std::string::npos) << text;
  EXPECT_NE(text.find(" a second, about "), std::string::npos) << text;
  EXPECT_NE(text.find(" left\n"), std::string::npos) << text;
}

TEST(PretrainedRunProgress, ShortRunsSayNothing) {
  const testing::CapturedLog log;
  RunProgress progress("models/x", 400, std::chrono::hours(1));
  progress.advance(100);
  progress.advance(400);
  EXPECT_EQ(log.text(), "");
}

}  // namespace
}  // namespace claimrag::pretrained
