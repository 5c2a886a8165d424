#include "claimrag/interrogation/fusion.hpp"

#include <cmath>
#include <string>

#include "claimrag/error.hpp"

namespace claimrag::interrogation {
namespace {

using Scores = std::array<double, answer_count>;

const double log_m = std::log(static_cast<double>(answer_count));

/// argmax with ties to the first of Neutral, Support, Refute.
Fused pick(const Scores& scores) {
  Answer best = Answer::neutral;
  for (const Answer candidate : {Answer::support, Answer::refute}) {
    if (scores[static_cast<int>(candidate)] > scores[static_cast<int>(best)]) best = candidate;
  }
  return {best, scores[static_cast<int>(best)], scores};
}

void require_alpha(double alpha) {
  if (!(alpha >= 0.0 && alpha <= 1.0)) {
    throw UsageError("alpha must lie in [0, 1], got " + std::to_string(alpha));
  }
}

/// The weight of P_AG once an empty set has handed its weight to the other.
double effective_alpha(const Tally& tally, double alpha) {
  if (tally.conflict.total() == 0) return 1.0;
  if (tally.agree.total() == 0) return 0.0;
  return alpha;
}

}  // namespace

std::array<double, answer_count> AnswerCounts::proportions() const {
  Scores shares{};
  const std::size_t all = total();
  if (all == 0) return shares;
  for (std::size_t q = 0; q < answer_count; ++q) {
    shares[q] = static_cast<double>(counts[q]) / static_cast<double>(all);
  }
  return shares;
}

Tally tally(std::span<const ProbeAnswer> answers) {
  Tally counted;
  for (const ProbeAnswer& answer : answers) {
    if (answer.set == ProbeSet::agree) {
      ++counted.agree.counts[static_cast<int>(answer.answer)];
    } else {
      ++counted.conflict.counts[static_cast<int>(invert(answer.answer))];
    }
  }
  return counted;
}

Fused weighted_proportions(const Tally& tally, double alpha) {
  require_alpha(alpha);
  const double a = effective_alpha(tally, alpha);
  const Scores agree = tally.agree.proportions();
  const Scores conflict = tally.conflict.proportions();
  Scores wp{};
  for (std::size_t q = 0; q < answer_count; ++q) wp[q] = a * agree[q] + (1.0 - a) * conflict[q];
  return pick(wp);
}

double entropy(const std::array<double, answer_count>& distribution) {
  double e = 0.0;
  for (const double p : distribution) {
    if (p > 0.0) e -= p * std::log(p);
  }
  return e;
}

InformationGain weighted_information_gain(const Tally& tally, double alpha) {
  require_alpha(alpha);
  const double a = effective_alpha(tally, alpha);
  const Scores agree = tally.agree.proportions();
  const Scores conflict = tally.conflict.proportions();
  InformationGain result;
  result.entropy_agree = entropy(agree);
  result.entropy_conflict = entropy(conflict);
  result.gain_agree = log_m - result.entropy_agree;
  result.gain_conflict = log_m - result.entropy_conflict;
  Scores wig{};
  for (std::size_t q = 0; q < answer_count; ++q) {
    wig[q] = a * result.gain_agree * agree[q] + (1.0 - a) * result.gain_conflict * conflict[q];
  }
  result.fused = pick(wig);
  return result;
}

BeliefUpdate weighted_belief_update(const Tally& tally, double alpha) {
  require_alpha(alpha);
  constexpr int s = static_cast<int>(Answer::support);
  constexpr int r = static_cast<int>(Answer::refute);
  constexpr int n = static_cast<int>(Answer::neutral);
  BeliefUpdate result;
  // A set without answers carries no evidence: the vacuous mass, all on N (the whole frame).
  const auto mass_or_vacuous = [](const AnswerCounts& counts) {
    return counts.total() == 0 ? Scores{0.0, 0.0, 1.0} : counts.proportions();
  };
  const Scores ag = mass_or_vacuous(tally.agree);
  const Scores cf = mass_or_vacuous(tally.conflict);
  result.mass_agree = ag;
  result.mass_conflict = {alpha * cf[s], alpha * cf[r], cf[n] + (1.0 - alpha) * (cf[s] + cf[r])};
  const Scores& m1 = result.mass_agree;
  const Scores& m2 = result.mass_conflict;
  const Scores joint{m1[s] * m2[s] + m1[s] * m2[n] + m1[n] * m2[s],
                     m1[r] * m2[r] + m1[r] * m2[n] + m1[n] * m2[r], m1[n] * m2[n]};
  result.conflict = m1[r] * m2[s] + m1[s] * m2[r];
  const double normaliser = joint[s] + joint[r] + joint[n];  // = 1 - K
  if (normaliser == 0.0) {
    result.total_conflict = true;
    result.conflict = 1.0;
    result.fused = pick({0.0, 0.0, 1.0});
    return result;
  }
  result.fused = pick({joint[s] / normaliser, joint[r] / normaliser, joint[n] / normaliser});
  return result;
}

MetaVerdict meta_verdict(const Fused& wp, const InformationGain& wig, const BeliefUpdate& wbu) {
  MetaVerdict meta;
  meta.normalised = {wp.confidence, wig.fused.confidence / log_m, wbu.fused.confidence};
  meta.confidence = (meta.normalised[0] + meta.normalised[1] + meta.normalised[2]) / 3.0;
  const std::array<Answer, 3> verdicts{wp.verdict, wig.fused.verdict, wbu.fused.verdict};
  if (verdicts[0] == verdicts[1] || verdicts[0] == verdicts[2]) {
    meta.verdict = verdicts[0];
  } else if (verdicts[1] == verdicts[2]) {
    meta.verdict = verdicts[1];
  } else {
    std::size_t best = 0;
    for (std::size_t i = 1; i < 3; ++i) {
      if (meta.normalised[i] > meta.normalised[best]) best = i;
    }
    meta.verdict = verdicts[best];
  }
  return meta;
}

FusionResult fuse(std::span<const ProbeAnswer> answers, double alpha) {
  require_alpha(alpha);
  FusionResult result;
  result.tally = tally(answers);
  result.wp = weighted_proportions(result.tally, alpha);
  result.wig = weighted_information_gain(result.tally, alpha);
  result.wbu = weighted_belief_update(result.tally, alpha);
  result.meta = meta_verdict(result.wp, result.wig, result.wbu);
  return result;
}

}  // namespace claimrag::interrogation
