#include "claimrag/experiment/verification/checkpoint_verification_stage.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/verification/checkpoint_rule_selection.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"

namespace claimrag::experiment {
namespace {

using verification::CheckpointRule;

nlohmann::ordered_json rule_json(const CheckpointRule& rule) {
  return {{"premise", verification::premise_unit_name(rule.premise)}, {"threshold", rule.threshold}};
}

void write_grid_table(const verification::CheckpointRuleChoice& choice, const std::filesystem::path& file) {
  io::Table table{{"premise", "threshold", "label_only_f1", "label_rationale_f1", "chosen"}, {}};
  for (const auto& row : choice.grid) {
    const bool chosen = row.rule.premise == choice.rule.premise && row.rule.threshold == choice.rule.threshold;
    table.rows.push_back({std::string(verification::premise_unit_name(row.rule.premise)), io::fixed(row.rule.threshold, 2),
                          io::fixed(row.label_only_f1, 6), io::fixed(row.label_rationale_f1, 6), chosen ? "yes" : ""});
  }
  io::write_tsv(table, file);
}

}  // namespace

void run_checkpoint_verification_stage(const ExperimentConfig& config, const SciFactVerifiers& data,
                                       const std::filesystem::path& work) {
  const auto& settings = config.verification.checkpoint;
  if (settings.verifier.empty()) throw UsageError("checkpoint_verification: verification.checkpoint.verifier names no checkpoint");
  const auto spec = parse_verifier_spec(settings.verifier);
  const verification::NliCheckpoint checkpoint(spec.location, settings.labels);
  verification::CheckpointRuleGrid grid;
  grid.premises.clear();
  for (const auto& name : settings.premise_grid) grid.premises.push_back(verification::parse_premise_unit(name));
  grid.thresholds = settings.threshold_grid;
  grid.folds = config.verification.options.folds;
  grid.max_rationale = config.verification.options.max_rationale;
  const auto claims = data.free_text_inputs(data.train_claims());
  const auto choice = verification::choose_checkpoint_rule(checkpoint, claims, grid, checkpoint_verifier_options(config));

  write_grid_table(choice, work / "tables" / "checkpoint_verification.tsv");
  nlohmann::ordered_json record;
  record["verifier"] = verifier_record({settings.verifier, {}, {}, {}, {}}, config);
  record["claims"] = claims.size();
  record["folds"] = grid.folds;
  record["chosen"] = rule_json(choice.rule);
  record["label_rationale_f1"] = choice.label_rationale_f1;
  record["cross_validated_label_rationale_f1"] = choice.cross_validated_label_rationale_f1;
  auto folds = nlohmann::ordered_json::array();
  for (const auto& rule : choice.fold_choices) folds.push_back(rule_json(rule));
  record["fold_choices"] = std::move(folds);
  const auto file = work / "checkpoint_verification" / "choice.json";
  io::write_file_atomically(file, io::json_text(record, file.string(), 2) + "\n");
  spdlog::info("checkpoint verifier {}: premise {}, threshold {} chosen on {} train claims (Label+Rationale F1 {:.4f} on "
               "them; {:.4f} cross-validated); set verification.checkpoint.premise and threshold to use it",
               spec.location, verification::premise_unit_name(choice.rule.premise), choice.rule.threshold, claims.size(),
               choice.label_rationale_f1, choice.cross_validated_label_rationale_f1);
}

}  // namespace claimrag::experiment
