#pragma once
// Choosing the checkpoint verifier's rule (checkpoint_verifier.hpp: premise unit and threshold)
// on labelled claims, e.g. SciFact's train claims, by the project's family-grouped
// cross-validation (claim_folds.hpp).
//
// The checkpoint is not trained, so cross-validation here measures the choice, not a fit: for
// each fold, the rule with the best pooled abstract Label+Rationale F1 on the other folds is
// chosen and scored on the held-out fold; the held-out counts pooled over the folds give the
// estimate reported beside the final choice, which is the best rule on every claim. Ties go to
// the earlier premise of the grid, then the earlier threshold.

#include <cstddef>
#include <map>
#include <span>
#include <vector>

#include "claimrag/verification/checkpoint_verifier.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::verification {

struct CheckpointRuleGrid {
  std::vector<PremiseUnit> premises{PremiseUnit::sentence, PremiseUnit::window, PremiseUnit::abstract};
  std::vector<double> thresholds{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
  std::size_t folds = 5;          ///< ≥ 2
  std::size_t max_rationale = 3;  ///< every rule's
};

/// One rule's pooled scores over every claim.
struct CheckpointRuleScore {
  CheckpointRule rule;
  double label_only_f1 = 0;
  double label_rationale_f1 = 0;
};

struct CheckpointRuleChoice {
  CheckpointRule rule;                       ///< the best on every claim
  double label_rationale_f1 = 0;             ///< its pooled score on every claim (optimistic: chosen there)
  double cross_validated_label_rationale_f1 = 0;  ///< held-out score of the choice made on the other folds
  std::vector<CheckpointRule> fold_choices;  ///< the rule chosen without each fold
  std::vector<CheckpointRuleScore> grid;     ///< every rule, premises then thresholds in grid order
};

/// The choice from premise judgements already made: `judged[unit]` holds the judgements of
/// `claims`' inputs under that unit, for every unit of the grid. UsageError for an empty grid,
/// folds < 2, no claims, or a unit of the grid not judged.
CheckpointRuleChoice choose_checkpoint_rule(std::span<const LabelledInput> claims,
                                            const std::map<PremiseUnit, PremiseJudgements>& judged,
                                            const CheckpointRuleGrid& grid);

/// Judges `claims` under every unit of the grid with `checkpoint`, then chooses as above.
CheckpointRuleChoice choose_checkpoint_rule(const NliCheckpoint& checkpoint, std::span<const LabelledInput> claims,
                                            const CheckpointRuleGrid& grid, const CheckpointVerifierOptions& options);

}  // namespace claimrag::verification
