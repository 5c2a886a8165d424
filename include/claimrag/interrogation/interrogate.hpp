#pragma once
// Multi-probe interrogation of (claim, abstract) pairs: every probe put to every pair K times,
// every answer resolved, and the answers fused into WP, WIG, WBU and meta verdicts.

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "claimrag/interrogation/fusion.hpp"
#include "claimrag/interrogation/pair.hpp"
#include "claimrag/interrogation/recorded_responder.hpp"
#include "claimrag/interrogation/resolution.hpp"
#include "claimrag/interrogation/responder.hpp"

namespace claimrag::interrogation {

struct InterrogationOptions {
  std::size_t samples = 10;  ///< K, answers per probe; >= 1
  double alpha = 0.5;        ///< the trade-off of equations 1-3, 9-11 and Table 1; in [0, 1]
};

struct ResolvedResponse {
  std::size_t probe = 0;   ///< index into the probes
  std::size_t sample = 0;  ///< 0-based
  std::string text;
  std::string failure;                    ///< why the answer could not be obtained; "" when it was
  Resolution resolution;                  ///< the answer to the probe's own question
  Answer stance = Answer::neutral;        ///< the answer as a stance on the claim (CF inverted)
};

struct PairInterrogation {
  std::vector<ResolvedResponse> responses;  ///< probe-major, then sample
  std::size_t unresolved = 0;               ///< answers no rule could read (counted as Neutral)
  std::size_t skipped_probes = 0;           ///< negated probes not asked: the claim has no negation
  Answer baseline = Answer::neutral;        ///< the single-probe baseline: p_O's first answer
  FusionResult fusion;
};

/// Throws UsageError for K < 1, alpha outside [0, 1] or no probes. A pair whose claim the
/// rewriter cannot negate (empty negated_claim) is not asked the negated probes: it has fewer
/// conflict answers, and `skipped_probes` says how many probes it missed. One result per pair, in
/// input order; deterministic for a deterministic responder, whatever the thread count.
std::vector<PairInterrogation> interrogate(std::span<const InterrogationPair> pairs, std::span<const Probe> probes,
                                           Responder& responder, const InterrogationOptions& options);

/// JSON Lines, one object per pair in input order: the pair, every response (probe, set, sample,
/// text, answer, stance, resolved, rule), the counts per set after inversion, the unresolved
/// count, the baseline, and "wp", "wig", "wbu", "meta" with verdicts, confidences and scores
/// (arrays in the order SUPPORT, REFUTE, NEUTRAL). Written atomically.
void write_interrogation(const std::filesystem::path& file, std::span<const InterrogationPair> pairs,
                         std::span<const Probe> probes, std::span<const PairInterrogation> results);

/// Every response in the recorded format, for replay with `--responder recorded:FILE`.
std::vector<RecordedAnswer> recorded_answers(std::span<const InterrogationPair> pairs, std::span<const Probe> probes,
                                             std::span<const PairInterrogation> results);

}  // namespace claimrag::interrogation
