#include "claimrag/gate/thresholds.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

#include "claimrag/error.hpp"
#include "claimrag/selective/risk_coverage.hpp"

namespace claimrag::gate {
namespace {

double parse_number(const std::string& text, const std::string& whole) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    throw UsageError("thresholds \"" + whole + "\": \"" + text + "\" is not a number");
  }
  return value;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

}  // namespace

ThresholdSpec parse_thresholds(const std::string& text) {
  ThresholdSpec spec;
  if (text.empty()) throw UsageError("thresholds: empty specification");
  constexpr std::string_view kCoverage = "coverage:";
  if (text.starts_with(kCoverage)) {
    for (const auto& part : split(text.substr(kCoverage.size()), ',')) {
      const double coverage = parse_number(part, text);
      if (coverage <= 0 || coverage > 1) throw UsageError("thresholds \"" + text + "\": coverages must lie in (0, 1]");
      spec.coverages.push_back(coverage);
    }
    return spec;
  }
  if (text.find(':') != std::string::npos) {
    const auto parts = split(text, ':');
    if (parts.size() != 3) throw UsageError("thresholds \"" + text + "\": a range is start:stop:step");
    const double start = parse_number(parts[0], text);
    const double stop = parse_number(parts[1], text);
    const double step = parse_number(parts[2], text);
    if (step <= 0) throw UsageError("thresholds \"" + text + "\": the step must be > 0");
    if (stop < start) throw UsageError("thresholds \"" + text + "\": the range is reversed (stop < start)");
    // Values as start + i·step (not repeated addition), the stop included within rounding.
    const auto count = static_cast<long>(std::floor((stop - start) / step + 1e-9)) + 1;
    if (count > 10'000'000) throw UsageError("thresholds \"" + text + "\": more than 10 million thresholds");
    for (long i = 0; i < count; ++i) spec.values.push_back(start + static_cast<double>(i) * step);
    return spec;
  }
  for (const auto& part : split(text, ',')) spec.values.push_back(parse_number(part, text));
  return spec;
}

std::vector<double> resolve_thresholds(const ThresholdSpec& spec, const std::vector<double>& signal_values) {
  if (spec.coverages.empty()) return spec.values;
  if (signal_values.empty()) throw UsageError("coverage thresholds need at least one claim");
  std::vector<double> sorted = signal_values;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  std::vector<double> thresholds;
  for (const double coverage : spec.coverages) {
    thresholds.push_back(sorted[selective::items_at_coverage(coverage, sorted.size()) - 1]);
  }
  return thresholds;
}

}  // namespace claimrag::gate
