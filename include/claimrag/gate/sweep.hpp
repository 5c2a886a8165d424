#pragma once
// The abstention gate: a claim is answered when its confidence signal is at least the threshold,
// else refused. A claim that is not answerable (the system retrieved no document for it) is
// refused at every threshold. A sweep evaluates many thresholds over one set of claims after one sort, so a
// thousand thresholds cost little more than one.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace claimrag::gate {

/// What the gate needs to know of one claim.
struct ClaimOutcome {
  std::string claim_id;
  double signal = 0;                  ///< the confidence signal's value
  bool hallucinated = false;          ///< no relevant document in the system's top-10
  std::optional<double> evidence_f1;  ///< token F1 of its cited evidence, when known
  bool answerable = true;             ///< false: the system's ranking is empty, always refused
};

/// True when the gate answers `claim` at `threshold`.
[[nodiscard]] inline bool answers(const ClaimOutcome& claim, double threshold) {
  return claim.answerable && claim.signal >= threshold;
}

/// The order in which thresholds answer claims: answerable before not, then descending signal.
[[nodiscard]] inline bool answered_before(const ClaimOutcome& a, const ClaimOutcome& b) {
  if (a.answerable != b.answerable) return a.answerable;
  return a.signal > b.signal;
}

struct SweepRow {
  double threshold = 0;
  std::size_t answered = 0;
  double answer_rate = 0;
  double refusal_rate = 0;
  double hallucination_rate = 0;  ///< among answered claims; 0 when none is answered
  double evidence_f1 = 0;         ///< mean over answered claims with a known F1; 0 when none
};

/// One row per threshold, in the given order.
std::vector<SweepRow> sweep(const std::vector<ClaimOutcome>& claims, const std::vector<double>& thresholds);

}  // namespace claimrag::gate
