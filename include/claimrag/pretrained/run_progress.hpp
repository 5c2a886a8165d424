#pragma once
// How far a long run of a checkpoint over many sequences has come, on stderr: a verifier judging
// thousands of (premise, claim) pairs runs for minutes, and the user should see the pairs done,
// the rate and the time left. Logged at info level, so `--quiet` hides it; a short run logs nothing.

#include <chrono>
#include <cstddef>
#include <string>

namespace claimrag::pretrained {

/// "42s", "3m10s", "1h02m": a duration rounded to the second, for progress lines.
std::string duration_text(double seconds);

/// Logs one line per `interval` of a run over `total` sequences:
/// "LABEL: 1200 of 5400 sequences (22%), 38.1 a second, about 1m50s left".
class RunProgress {
 public:
  RunProgress(std::string label, std::size_t total, std::chrono::steady_clock::duration interval = std::chrono::seconds(10));
  /// Records that `done` sequences are finished; logs when an interval has passed since the last line.
  void advance(std::size_t done);

 private:
  std::string label_;
  std::size_t total_;
  std::chrono::steady_clock::duration interval_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_line_;
};

}  // namespace claimrag::pretrained
