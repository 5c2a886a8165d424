#include "claimrag/grounding/evaluation.hpp"

#include "claimrag/error.hpp"

namespace claimrag::grounding {

using verification::Label;

std::string_view method_name(Method method) {
  switch (method) {
    case Method::score_only: return "score_only";
    case Method::refusal_all: return "refusal_all";
    case Method::refusal_mean: return "refusal_mean";
    case Method::grounding: return "grounding";
  }
  throw InternalError("method_name: unknown method");
}

std::vector<bool> kept_claims(Method method, const ScoredAnswer& answer, const MethodSettings& settings) {
  std::vector<bool> supported;
  double mean = 0;
  bool all = true;
  for (const auto& claim : answer) {
    supported.push_back(label_of(claim.support, claim.conflict, settings.thresholds) == ClaimLabel::supported);
    all = all && supported.back();
    mean += claim.support / static_cast<double>(answer.size());
  }
  switch (method) {
    case Method::score_only: return std::vector<bool>(answer.size(), true);
    case Method::refusal_all: return std::vector<bool>(answer.size(), all);
    case Method::refusal_mean: return std::vector<bool>(answer.size(), !answer.empty() && mean >= settings.mean_support_threshold);
    case Method::grounding: return supported;
  }
  throw InternalError("kept_claims: unknown method");
}

std::map<std::string, double> evaluate_method(Method method, std::span<const ScoredAnswer> answers, const MethodSettings& settings,
                                              std::span<const std::size_t> indices) {
  std::vector<std::size_t> all;
  if (indices.empty()) {
    for (std::size_t a = 0; a < answers.size(); ++a) all.push_back(a);
    indices = all;
  }
  double kept = 0, kept_support = 0, kept_conflict = 0, kept_nei = 0, gold_support = 0;
  double gold_nei = 0, unrelated = 0, kept_unrelated = 0;
  double verifier_support = 0, verifier_conflict = 0;
  double partial = 0, verifier_partial = 0, refused = 0, over_refused = 0;
  for (const std::size_t a : indices) {
    const ScoredAnswer& answer = answers[a];
    const auto keep = kept_claims(method, answer, settings);
    bool any_kept = false, had_support = false;
    bool has_support = false, has_conflict = false, says_support = false, says_conflict = false;
    for (std::size_t c = 0; c < answer.size(); ++c) {
      const ScoredClaim& claim = answer[c];
      gold_support += claim.gold == Label::support ? 1 : 0;
      gold_nei += claim.gold == Label::not_enough_info ? 1 : 0;
      unrelated += claim.unrelated ? 1 : 0;
      had_support = had_support || claim.gold == Label::support;
      if (!keep[c]) continue;
      kept_unrelated += claim.unrelated ? 1 : 0;
      any_kept = true;
      ++kept;
      kept_support += claim.gold == Label::support ? 1 : 0;
      kept_conflict += claim.gold == Label::contradict ? 1 : 0;
      kept_nei += claim.gold == Label::not_enough_info ? 1 : 0;
      has_support = has_support || claim.gold == Label::support;
      has_conflict = has_conflict || claim.gold == Label::contradict;
      const ClaimLabel label = label_of(claim.support, claim.conflict, settings.thresholds);
      verifier_support += label == ClaimLabel::supported ? 1 : 0;
      verifier_conflict += label == ClaimLabel::conflicting ? 1 : 0;
      says_support = says_support || label == ClaimLabel::supported;
      says_conflict = says_conflict || label == ClaimLabel::conflicting;
    }
    partial += has_support && has_conflict ? 1 : 0;
    verifier_partial += says_support && says_conflict ? 1 : 0;
    refused += any_kept ? 0 : 1;
    over_refused += !any_kept && had_support ? 1 : 0;
  }
  const double n = static_cast<double>(indices.size());
  const auto share = [](double part, double whole) { return whole > 0 ? part / whole : 0.0; };
  return {{"answers", n},
          {"claims_kept", kept},
          {"refusals", refused},
          {"support_rate", share(kept_support, kept)},
          {"conflict_rate", share(kept_conflict, kept)},
          {"nei_rate", share(kept_nei, kept)},
          {"precision", share(kept_support, kept)},
          {"recall", share(kept_support, gold_support)},
          {"nei_kept_rate", share(kept_nei, gold_nei)},
          {"unrelated_kept_rate", share(kept_unrelated, unrelated)},
          {"partial_hallucinations", partial},
          {"partial_hallucination_rate", share(partial, n)},
          {"over_refusals", over_refused},
          {"over_refusal_rate", share(over_refused, n)},
          {"verifier_support_rate", share(verifier_support, kept)},
          {"verifier_conflict_rate", share(verifier_conflict, kept)},
          {"verifier_partial_hallucinations", verifier_partial},
          {"verifier_partial_hallucination_rate", share(verifier_partial, n)}};
}

std::size_t choose_candidate(std::span<const std::map<std::string, double>> candidates, const ChoiceTargets& targets) {
  if (candidates.empty()) throw InternalError("choose_candidate: no candidate");
  // `better(a, b)`: a beats b on the key, then on support_rate; the earlier wins a full tie.
  const auto pick = [&](const auto& eligible, const auto& key) {
    std::size_t best = candidates.size();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (!eligible(candidates[i])) continue;
      if (best == candidates.size()) {
        best = i;
        continue;
      }
      const double ki = key(candidates[i]), kb = key(candidates[best]);
      if (ki > kb || (ki == kb && candidates[i].at("support_rate") > candidates[best].at("support_rate"))) best = i;
    }
    return best;
  };
  const auto recall = [](const auto& m) { return m.at("recall"); };
  const auto low_conflict = [](const auto& m) { return -m.at("conflict_rate"); };
  const auto reaches_recall = [&](const auto& m) { return m.at("recall") >= targets.min_recall && m.at("claims_kept") > 0; };
  const auto meets_both = [&](const auto& m) { return reaches_recall(m) && m.at("conflict_rate") <= targets.max_conflict_rate; };
  if (const std::size_t best = pick(meets_both, recall); best < candidates.size()) return best;
  if (const std::size_t best = pick(reaches_recall, low_conflict); best < candidates.size()) return best;
  return pick([](const auto&) { return true; }, recall);
}

MethodSettings choose_settings(std::span<const ScoredAnswer> answers, std::span<const double> grid, const ChoiceTargets& targets) {
  MethodSettings settings;
  std::vector<GroundingThresholds> pairs;
  std::vector<std::map<std::string, double>> scores;
  for (const double support : grid) {
    for (const double conflict : grid) {
      MethodSettings candidate;
      candidate.thresholds = {support, conflict};
      pairs.push_back(candidate.thresholds);
      scores.push_back(evaluate_method(Method::grounding, answers, candidate));
    }
  }
  settings.thresholds = pairs[choose_candidate(scores, targets)];
  scores.clear();
  for (const double mean : grid) {
    MethodSettings candidate = settings;
    candidate.mean_support_threshold = mean;
    scores.push_back(evaluate_method(Method::refusal_mean, answers, candidate));
  }
  settings.mean_support_threshold = grid[choose_candidate(scores, targets)];
  return settings;
}

}  // namespace claimrag::grounding
