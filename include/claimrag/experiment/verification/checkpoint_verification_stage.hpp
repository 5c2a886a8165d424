#pragma once
// The reproduction's checkpoint_verification stage: runs when verification.checkpoint.verifier
// names an NLI checkpoint (checkpoint:DIR). It chooses the checkpoint verifier's rule (premise
// unit and threshold, verification/checkpoint_rule_selection.hpp) on SciFact's train claims in
// the free-text setting (each claim's cited abstracts, plus a same-topic BM25 neighbour and an
// unrelated abstract as NOT_ENOUGH_INFO: what `--verifier checkpoint:DIR` judges for users) by
// family-grouped cross-validation, and writes:
//   tables/checkpoint_verification.tsv   every rule's pooled train scores, the chosen one marked
//   checkpoint_verification/choice.json  the checkpoint (config.json, weight checksums, label
//                                        map), the grid, the choice, the fold choices and the
//                                        cross-validated Label+Rationale F1
// It files nothing among the checked results (a user's checkpoint has no frozen number), and
// reads no dev claim.

#include <filesystem>

#include "claimrag/experiment/config.hpp"

namespace claimrag::experiment {

class SciFactVerifiers;

/// Runs the stage into `work`. UsageError when config.verification.checkpoint.verifier is empty.
void run_checkpoint_verification_stage(const ExperimentConfig& config, const SciFactVerifiers& data,
                                       const std::filesystem::path& work);

}  // namespace claimrag::experiment
