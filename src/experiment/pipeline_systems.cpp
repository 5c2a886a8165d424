// The stages of the systems built on the claim verifier (experiment/pipeline.hpp): verification
// itself, then every system that judges claims with the model it saves.

#include "claimrag/experiment/systems/abstention_stage.hpp"
#include "claimrag/experiment/systems/grounding_stage.hpp"
#include "claimrag/experiment/systems/interrogation_stage.hpp"
#include "claimrag/experiment/pipeline.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/experiment/systems/sufficiency_stage.hpp"
#include "claimrag/experiment/verification/checkpoint_verification_stage.hpp"
#include "claimrag/experiment/verification/verification_stage.hpp"

namespace claimrag::experiment {
namespace {

/// The cross-fitted verifier is trained once per reproduction, by the first stage that judges
/// train claims, and timed under its own name in Table 9 so that each stage's own time shows.
void train_cross_fitted(StageContext& context) {
  auto& verifiers = context.scifact_verifiers();
  if (verifiers.has_cross_fitted_oracle()) return;
  context.timer.time("cross-fitted oracle verifier", [&] { (void)verifiers.cross_fitted_oracle(); });
}

}  // namespace

/// Claim verification (experiment/verification/verification_stage.hpp): its own retrieval, so no inputs here.
Stage verification_stage() {
  Stage stage{"verification",
              {},
              {"tables/verification.tsv", "models/verifier_oracle.safetensors", "models/verifier_open.safetensors"},
              {}};
  stage.run = [](StageContext& context) {
    context.timer.time("claim verification",
                       [&] { run_verification_stage(context.config, context.scifact_verifiers(), context.work, context.results); });
  };
  return stage;
}

/// The NLI checkpoint verifier's rule chosen on train (experiment/verification/checkpoint_verification_stage.hpp).
Stage checkpoint_verification_stage() {
  Stage stage{"checkpoint_verification", {}, {"tables/checkpoint_verification.tsv", "checkpoint_verification/choice.json"}, {}};
  stage.run = [](StageContext& context) {
    context.timer.time("checkpoint verifier rule", [&] {
      run_checkpoint_verification_stage(context.config, context.scifact_verifiers(), context.work);
    });
  };
  return stage;
}

/// Claim-level grounding (experiment/systems/grounding_stage.hpp): the oracle verifier the verification
/// stage saved judges the dev benchmark.
Stage grounding_stage() {
  Stage stage{"grounding",
              {"models/verifier_oracle.safetensors"},
              {"tables/grounding.tsv", "tables/grounding_pr.tsv", "grounding/dev_answers.jsonl", "grounding/dev_gold.jsonl",
               "grounding/dev_grounded.jsonl"},
              {}};
  stage.run = [](StageContext& context) {
    train_cross_fitted(context);
    context.timer.time("claim-level grounding",
                       [&] { run_grounding_stage(context.config, context.scifact_verifiers(), context.work, context.results); });
  };
  return stage;
}

/// Multi-probe interrogation (experiment/systems/interrogation_stage.hpp).
Stage interrogation_stage() {
  Stage stage{"interrogation",
              {"models/verifier_oracle.safetensors"},
              {"tables/interrogation_strategies.tsv", "tables/interrogation_fusion.tsv", "tables/interrogation_gain.tsv",
               "interrogation/dev_verdicts.tsv"},
              {}};
  stage.run = [](StageContext& context) {
    train_cross_fitted(context);
    run_interrogation_stage(context);
  };
  return stage;
}

/// Evidence sufficiency (experiment/systems/sufficiency_stage.hpp).
Stage sufficiency_stage() {
  Stage stage{"sufficiency",
              {"models/verifier_oracle.safetensors"},
              {"sufficiency/benchmark.jsonl", "models/sufficiency_aggregator.json", "tables/sufficiency.tsv",
               "tables/sufficiency_counterfactual.tsv"},
              {}};
  stage.run = [](StageContext& context) {
    train_cross_fitted(context);
    context.timer.time("sufficiency",
                       [&] { run_sufficiency_stage(context.config, context.scifact_verifiers(), context.work, context.results); });
  };
  return stage;
}

/// Every abstention strategy on the same claims (experiment/systems/abstention_stage.hpp): reads the
/// verifiers, the gate's combined signal per claim, the interrogation stage's α and the
/// sufficiency stage's aggregator.
Stage abstention_stage() {
  Stage stage{"abstention",
              {"models/verifier_oracle.safetensors", "models/verifier_open.safetensors", "gate/combined_signal_train.tsv",
               "gate/combined_signal_test.tsv", "interrogation/dev_verdicts.tsv", "models/sufficiency_aggregator.json"},
              {"abstention/train_claims.tsv", "abstention/dev_claims.tsv", "abstention/dev_answers.jsonl", "tables/abstention.tsv",
               "tables/abstention_curves.tsv", "tables/abstention_operating_points.tsv", "tables/abstention.json"},
              {}};
  stage.run = [](StageContext& context) {
    train_cross_fitted(context);
    run_abstention_stage(context);
  };
  return stage;
}

}  // namespace claimrag::experiment
