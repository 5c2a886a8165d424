#pragma once
// Evidence fusion of the seed's "Verdict and Confidence" module (equations 1-19): the answers of
// all probes on one (claim, abstract) pair -> a verdict on the claim and a confidence, by Weighted
// Proportions (WP), Weighted Information Gain (WIG), Weighted Belief Update (WBU, Dempster's rule)
// and the meta-verdict over the three.
//
// Conventions the seed leaves open, fixed here:
// - Answers to conflict probes are inverted (Support <-> Refute) before anything is counted
//   (tally); Prob(r = Q, P) is the share of Q among all K x |P| answers of the set P.
// - A set without answers (no conflict probes, say) gives its weight to the other: WP and WIG use
//   alpha = 1 (no P_CF) or alpha = 0 (no P_AG); in WBU its mass is vacuous, m(N) = 1, which leaves
//   the other set's mass unchanged (N plays the role of the whole frame: S ∩ N = S).
// - Logarithms are natural; 0 log 0 = 0. M = 3.
// - argmax ties go to the first of Neutral, Support, Refute among the tied maxima (a tie is no
//   evidence either way).
// - WBU: Dempster's normaliser 1 - K is computed as the sum of the non-conflicting products (equal
//   in exact arithmetic, and exactly zero only when K = 1). At K = 1 (total conflict: one set all
//   Support, the other all Refute, with alpha = 1) the rule is undefined; the fused mass is then
//   vacuous, m(N) = 1: the verdict is Neutral and `total_conflict` is set.
// - Table 1 discounts only the conflict set, by alpha: in WBU a larger alpha trusts P_CF *more*,
//   whereas in WP and WIG a larger alpha weights P_AG more. That is the seed's definition, kept.
// - Normalised confidences for the meta-verdict: CS_WP and CS_WBU are probabilities already (÷ 1);
//   CS_WIG lies in [0, log 3] and is divided by log 3. CS_M is the mean of the three (eq. 19).
// - Meta-verdict: the mode of V_WP, V_WIG, V_WBU; when all three differ, the verdict of the
//   strategy with the highest normalised confidence, ties to the first of WP, WIG, WBU.

#include <array>
#include <cstddef>
#include <span>

#include "claimrag/interrogation/answer.hpp"
#include "claimrag/interrogation/probe.hpp"

namespace claimrag::interrogation {

/// How often each stance on the claim occurs among one probe set's answers.
struct AnswerCounts {
  std::array<std::size_t, answer_count> counts{};  ///< indexed by Answer
  [[nodiscard]] std::size_t total() const { return counts[0] + counts[1] + counts[2]; }
  /// counts / total; all zero when the set has no answers.
  [[nodiscard]] std::array<double, answer_count> proportions() const;
};

/// Both sets' counts, conflict answers already inverted.
struct Tally {
  AnswerCounts agree;
  AnswerCounts conflict;
};

/// One answer to one probe, as resolved (to the probe's own question).
struct ProbeAnswer {
  ProbeSet set = ProbeSet::agree;
  Answer answer = Answer::neutral;
};

/// Counts the answers per set, inverting those to conflict probes.
Tally tally(std::span<const ProbeAnswer> answers);

/// A fused verdict: the winning answer, its score (the confidence) and every answer's score.
struct Fused {
  Answer verdict = Answer::neutral;
  double confidence = 0.0;
  std::array<double, answer_count> scores{};  ///< indexed by Answer
};

/// Equations 1-4. Requires alpha in [0, 1].
Fused weighted_proportions(const Tally& tally, double alpha);

struct InformationGain {
  Fused fused;
  double entropy_agree = 0.0;    ///< E_AG, eq. 5
  double entropy_conflict = 0.0; ///< E_CF, eq. 6
  double gain_agree = 0.0;       ///< IG_AG = log 3 - E_AG, eq. 7
  double gain_conflict = 0.0;    ///< IG_CF, eq. 8
};
/// Shannon entropy (natural log) of a distribution, 0 log 0 = 0.
double entropy(const std::array<double, answer_count>& distribution);
/// Equations 5-12. Requires alpha in [0, 1].
InformationGain weighted_information_gain(const Tally& tally, double alpha);

struct BeliefUpdate {
  Fused fused;                                   ///< scores are the combined masses m(S), m(R), m(N)
  std::array<double, answer_count> mass_agree{};    ///< Table 1, row P_AG
  std::array<double, answer_count> mass_conflict{}; ///< Table 1, row P_CF
  double conflict = 0.0;                         ///< K, eq. 16
  bool total_conflict = false;                   ///< K = 1: the fused mass is vacuous
};
/// Table 1 and equations 13-17. Requires alpha in [0, 1].
BeliefUpdate weighted_belief_update(const Tally& tally, double alpha);

struct MetaVerdict {
  Answer verdict = Answer::neutral;
  double confidence = 0.0;                  ///< CS_M, eq. 19
  std::array<double, 3> normalised{};       ///< Norm(CS_WP), Norm(CS_WIG), Norm(CS_WBU)
};
/// Equations 18-19 over the three strategies' results.
MetaVerdict meta_verdict(const Fused& wp, const InformationGain& wig, const BeliefUpdate& wbu);

/// All four, as one pair's fused result.
struct FusionResult {
  Tally tally;
  Fused wp;
  InformationGain wig;
  BeliefUpdate wbu;
  MetaVerdict meta;
};
/// Throws UsageError when alpha is outside [0, 1].
FusionResult fuse(std::span<const ProbeAnswer> answers, double alpha);

}  // namespace claimrag::interrogation
