#pragma once
// Wall-clock timing of pipeline stages, logged as each one ends (Table 9).

#include <spdlog/spdlog.h>

#include <chrono>
#include <string>
#include <vector>

#include "claimrag/experiment/reproduce.hpp"

namespace claimrag::experiment {

class StageTimer {
 public:
  /// Runs `work`, records its wall time under `stage`, and logs it.
  template <typename Work>
  auto time(const std::string& stage, Work&& work) {
    spdlog::info("stage {} ...", stage);
    const auto start = std::chrono::steady_clock::now();
    if constexpr (std::is_void_v<decltype(work())>) {
      work();
      record(stage, start);
    } else {
      auto result = work();
      record(stage, start);
      return result;
    }
  }
  [[nodiscard]] const std::vector<StageTiming>& timings() const { return timings_; }

 private:
  void record(const std::string& stage, std::chrono::steady_clock::time_point start) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    timings_.push_back({stage, seconds});
    spdlog::info("stage {} done in {:.3f} s", stage, seconds);
  }
  std::vector<StageTiming> timings_;
};

}  // namespace claimrag::experiment
