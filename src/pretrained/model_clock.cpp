#include "claimrag/pretrained/model_clock.hpp"

#include <array>
#include <atomic>
#include <cstdint>

namespace claimrag::pretrained {
namespace {

std::array<std::atomic<std::int64_t>, 3>& nanoseconds() {
  static std::array<std::atomic<std::int64_t>, 3> sums{};
  return sums;
}

double seconds_of(ModelStage stage) {
  return static_cast<double>(nanoseconds()[static_cast<std::size_t>(stage)].load()) * 1e-9;
}

}  // namespace

StageTimer::StageTimer(ModelStage stage) : stage_(stage), start_(std::chrono::steady_clock::now()) {}

StageTimer::~StageTimer() {
  const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_);
  nanoseconds()[static_cast<std::size_t>(stage_)] += elapsed.count();
}

ModelTimes model_times() {
  return {seconds_of(ModelStage::loading), seconds_of(ModelStage::tokenizing), seconds_of(ModelStage::running)};
}

}  // namespace claimrag::pretrained
