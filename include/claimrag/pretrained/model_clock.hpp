#pragma once
// Where a command's time goes when it runs pretrained checkpoints: the wall time spent loading
// them, tokenizing their inputs and running the models, each summed over the whole process. A
// stage is timed by a StageTimer alive for its length; `claimrag --verbose` logs the sums as its
// last line, so the share of a command's time that is the model's can be measured on any command
// (scripts/bench/system_overhead.sh) without a profiler.

#include <chrono>

namespace claimrag::pretrained {

enum class ModelStage { loading, tokenizing, running };

/// Adds the wall time from its construction to its destruction to `stage`'s sum. Timers of one
/// stage must not nest (the time would be counted twice); timers on several threads add up.
class StageTimer {
 public:
  explicit StageTimer(ModelStage stage);
  ~StageTimer();
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  ModelStage stage_;
  std::chrono::steady_clock::time_point start_;
};

/// The sums so far, in seconds.
struct ModelTimes {
  double loading = 0.0;
  double tokenizing = 0.0;
  double running = 0.0;
};
ModelTimes model_times();

}  // namespace claimrag::pretrained
