#include "claimrag/pretrained/run_progress.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

namespace claimrag::pretrained {

std::string duration_text(double seconds) {
  const auto whole = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
  if (whole < 60) return std::to_string(whole) + "s";
  if (whole < 3600) return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}h{:02}m", whole / 3600, (whole % 3600) / 60);
}

RunProgress::RunProgress(std::string label, std::size_t total, std::chrono::steady_clock::duration interval)
    : label_(std::move(label)), total_(total), interval_(interval), start_(std::chrono::steady_clock::now()), last_line_(start_) {}

void RunProgress::advance(std::size_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_line_ < interval_ || done == 0 || total_ == 0) return;
  last_line_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  const std::string left = rate > 0 ? duration_text(static_cast<double>(total_ - done) / rate) : "?";
  spdlog::info("{}: {} of {} sequences ({}%), {:.1f} a second, about {} left", label_, done, total_, 100 * done / total_,
               rate, left);
}

}  // namespace claimrag::pretrained
