#pragma once
// Scoring grounding and its baselines on claims with gold labels (grounding/benchmark.hpp).
//
// Every method keeps some claims of each answer; the final answer is the kept claims, or
// "I don't know" when none is kept. On the same verifier scores (s, c per claim, see
// claim_judgement.hpp):
//   score_only    keeps every claim (no filtering; the seed's "score-only" baseline);
//   refusal_all   keeps the answer whole when every claim is labelled supported, else refuses;
//   refusal_mean  keeps the answer whole when the mean of its claims' s is ≥ τ_m, else refuses;
//   grounding     keeps the supported claims (claim-level selective grounding).
// The two refusals stand in for the seed's prompt-level refusal (a response-level decision)
// without a language model.
//
// Metrics over a set of answers, by gold labels (SUPPORT / CONTRADICT / NEI against the context):
//   support_rate, conflict_rate, nei_rate   shares of the kept claims (0 when none is kept);
//                                           support_rate is also the precision of kept claims
//   recall                                  kept gold-SUPPORT claims / all gold-SUPPORT claims
//   nei_kept_rate                           kept gold-NEI claims / all gold-NEI claims
//   unrelated_kept_rate                     kept unrelated claims / all unrelated claims (0 without any)
//   partial_hallucinations (count, _rate)   final answers with a gold-SUPPORT and a gold-CONTRADICT claim
//   over_refusals (count, _rate)            refused answers that had a gold-SUPPORT claim
// and by the verifier's own labels (label_of at the thresholds): verifier_support_rate,
// verifier_conflict_rate, verifier_partial_hallucinations (count, _rate). Rates over answers
// divide by the number of answers.

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/grounding/claim_judgement.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::grounding {

struct ScoredClaim {
  double support = 0;
  double conflict = 0;
  verification::Label gold = verification::Label::not_enough_info;
  bool unrelated = false;  ///< a claim about another topic than the context (BenchmarkClaim::unrelated)
};

using ScoredAnswer = std::vector<ScoredClaim>;

enum class Method { score_only, refusal_all, refusal_mean, grounding };

/// "score_only", "refusal_all", "refusal_mean", "grounding".
std::string_view method_name(Method method);
inline constexpr Method kMethods[] = {Method::score_only, Method::refusal_all, Method::refusal_mean, Method::grounding};

struct MethodSettings {
  GroundingThresholds thresholds;
  double mean_support_threshold = 0.5;  ///< τ_m of refusal_mean
};

/// Which claims of `answer` the method keeps.
std::vector<bool> kept_claims(Method method, const ScoredAnswer& answer, const MethodSettings& settings);

/// The metrics of the file comment, by name, over the answers at `indices` (all when empty).
std::map<std::string, double> evaluate_method(Method method, std::span<const ScoredAnswer> answers, const MethodSettings& settings,
                                              std::span<const std::size_t> indices = {});

/// The targets a choice aims at: the kept claims' conflict rate at most max_conflict_rate while
/// keeping at least min_recall of the gold-supported claims.
struct ChoiceTargets {
  double max_conflict_rate = 0.02;
  double min_recall = 0.6;
};

/// The choice rule, first that applies (ties: larger support_rate, then the earlier candidate):
///  1. among candidates meeting both targets, the largest recall;
///  2. else among those reaching min_recall, the smallest conflict_rate;
///  3. else the largest recall.
/// Keeping nothing (conflict rate 0, recall 0) can only win by rule 3 when nothing keeps a claim.
std::size_t choose_candidate(std::span<const std::map<std::string, double>> candidates, const ChoiceTargets& targets);

/// Grounding's τ_s × τ_c over `grid` (τ_s outer), and refusal_mean's τ_m over `grid`, each
/// chosen by choose_candidate on `answers` (train).
MethodSettings choose_settings(std::span<const ScoredAnswer> answers, std::span<const double> grid, const ChoiceTargets& targets);

}  // namespace claimrag::grounding
