#include "claimrag/verification/checkpoint_rule_selection.hpp"

#include "claimrag/error.hpp"
#include "claimrag/verification/claim_folds.hpp"
#include "claimrag/verification/official_metrics.hpp"
#include "verdict_scores.hpp"

namespace claimrag::verification {
namespace {

std::vector<VerificationInput> inputs_of(std::span<const LabelledInput> claims) {
  std::vector<VerificationInput> inputs;
  inputs.reserve(claims.size());
  for (const auto& claim : claims) inputs.push_back(claim.input);
  return inputs;
}

// The index of the rule with the best pooled Label+Rationale F1 over the claims `use` admits;
// strictly better replaces, so ties keep the earlier rule.
std::size_t best_rule(const std::vector<std::vector<VerificationCounts>>& counts, const std::vector<std::size_t>& fold_of,
                      std::size_t held_out) {
  std::size_t best = 0;
  double best_f1 = -1.0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    VerificationCounts pooled;
    for (std::size_t c = 0; c < counts[r].size(); ++c) {
      if (fold_of[c] != held_out) pooled += counts[r][c];
    }
    const double f1 = scores_from_counts(pooled).abstract_rationalized.f1;
    if (f1 > best_f1) {
      best_f1 = f1;
      best = r;
    }
  }
  return best;
}

}  // namespace

CheckpointRuleChoice choose_checkpoint_rule(std::span<const LabelledInput> claims,
                                            const std::map<PremiseUnit, PremiseJudgements>& judged,
                                            const CheckpointRuleGrid& grid) {
  if (grid.premises.empty() || grid.thresholds.empty()) throw UsageError("the checkpoint rule grid is empty");
  if (grid.folds < 2) throw UsageError("choosing the checkpoint rule needs at least 2 folds");
  if (claims.empty()) throw UsageError("choosing the checkpoint rule needs labelled claims");
  const auto inputs = inputs_of(claims);
  std::vector<CheckpointRule> rules;
  std::vector<std::vector<VerificationCounts>> counts;  // [rule][claim]
  for (const PremiseUnit unit : grid.premises) {
    const auto found = judged.find(unit);
    if (found == judged.end()) throw UsageError("premise " + std::string(premise_unit_name(unit)) + " was not judged");
    for (const double threshold : grid.thresholds) {
      const CheckpointRule rule{unit, threshold, grid.max_rationale};
      const auto verdicts = checkpoint_verdicts(inputs, found->second, rule);
      auto& per_claim = counts.emplace_back();
      for (std::size_t c = 0; c < claims.size(); ++c) per_claim.push_back(detail::verdict_counts(verdicts[c], claims[c]));
      rules.push_back(rule);
    }
  }
  std::vector<std::vector<std::string>> families;
  for (const auto& claim : claims) families.push_back(claim.family_doc_ids);
  const auto fold_of = family_folds(families, grid.folds);

  CheckpointRuleChoice choice;
  VerificationCounts held_out_counts;
  for (std::size_t f = 0; f < grid.folds; ++f) {
    const std::size_t r = best_rule(counts, fold_of, f);
    choice.fold_choices.push_back(rules[r]);
    for (std::size_t c = 0; c < claims.size(); ++c) {
      if (fold_of[c] == f) held_out_counts += counts[r][c];
    }
  }
  choice.cross_validated_label_rationale_f1 = scores_from_counts(held_out_counts).abstract_rationalized.f1;
  const std::size_t no_fold = grid.folds;  // every claim is in a fold below this
  const std::size_t chosen = best_rule(counts, fold_of, no_fold);
  choice.rule = rules[chosen];
  for (std::size_t r = 0; r < rules.size(); ++r) {
    VerificationCounts pooled;
    for (const auto& c : counts[r]) pooled += c;
    const auto scores = scores_from_counts(pooled);
    choice.grid.push_back({rules[r], scores.abstract_label_only.f1, scores.abstract_rationalized.f1});
  }
  choice.label_rationale_f1 = choice.grid[chosen].label_rationale_f1;
  return choice;
}

CheckpointRuleChoice choose_checkpoint_rule(const NliCheckpoint& checkpoint, std::span<const LabelledInput> claims,
                                            const CheckpointRuleGrid& grid, const CheckpointVerifierOptions& options) {
  const auto inputs = inputs_of(claims);
  std::map<PremiseUnit, PremiseJudgements> judged;
  for (const PremiseUnit unit : grid.premises) {
    if (!judged.contains(unit)) judged.emplace(unit, judge_premises(checkpoint, inputs, unit, options));
  }
  return choose_checkpoint_rule(claims, judged, grid);
}

}  // namespace claimrag::verification
