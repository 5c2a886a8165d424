#pragma once
// Threshold specifications for `claimrag gate --thresholds`:
//   "10,15,20"                a list
//   "10:40:5"                 a range start:stop:step, stop included when the steps land on it
//   "coverage:0.3,0.5,0.7"    the thresholds that answer those fractions of the claims
// A range that is empty, reversed or has a step <= 0 is a UsageError, as is an empty list.

#include <string>
#include <vector>

namespace claimrag::gate {

struct ThresholdSpec {
  std::vector<double> values;     ///< explicit thresholds (list or range), in the order given
  std::vector<double> coverages;  ///< or target coverages in (0, 1]
};

ThresholdSpec parse_thresholds(const std::string& text);

/// Thresholds for `spec` given the claims' signal values: explicit values as they are; for each
/// target coverage c, the signal value of the ceil(c·n)-th claim by descending signal (so at
/// least that fraction is answered; ties may answer more).
std::vector<double> resolve_thresholds(const ThresholdSpec& spec, const std::vector<double>& signal_values);

}  // namespace claimrag::gate
