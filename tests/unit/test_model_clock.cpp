// The model clock (pretrained/model_clock.hpp): loading, tokenizing and running a checkpoint each
// add to their own sum, and only to it.

#include <gtest/gtest.h>

#include <thread>

#include "claimrag/pretrained/model_clock.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "pretrained_fixture.hpp"

namespace claimrag::pretrained {
namespace {

TEST(ModelClock, EachStageAddsToItsOwnSum) {
  const ModelTimes before = model_times();
  const TextModel model(testing::fixture_checkpoint("bert-classifier"));
  const ModelTimes loaded = model_times();
  EXPECT_GT(loaded.loading, before.loading);
  EXPECT_EQ(loaded.tokenizing, before.tokenizing);
  EXPECT_EQ(loaded.running, before.running);

  const std::vector<TextInput> inputs{{"a premise to read", std::string_view("a claim")}, {"another premise", std::nullopt}};
  (void)model.run(inputs, 0, 8, "test");
  const ModelTimes ran = model_times();
  EXPECT_EQ(ran.loading, loaded.loading);
  EXPECT_GT(ran.tokenizing, loaded.tokenizing);
  EXPECT_GT(ran.running, loaded.running);
}

TEST(ModelClock, TimersOnSeveralThreadsAddUp) {
  const double before = model_times().running;
  auto wait = [] {
    const StageTimer timer(ModelStage::running);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  };
  std::thread first(wait);
  std::thread second(wait);
  first.join();
  second.join();
  EXPECT_GE(model_times().running - before, 0.040);  // two 20 ms stretches, whatever their overlap
}

}  // namespace
}  // namespace claimrag::pretrained
