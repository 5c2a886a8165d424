#pragma once
// The claim verification stage of the reproduction: trains the verifier on SciFact's train claims
// in the oracle and open settings (open: BM25's top k, k chosen by cross-validation on train),
// verifies the dev claims (the BEIR test claims) once, and scores ours and three baselines with
// the same selector:
//   always_support    every kept abstract SUPPORT, with the selected sentences
//   support_replaced  our NEI decisions and rationales, every other verdict SUPPORT
//   claim_only        the label predictor reading only the claim (claim_only_features)
// Writes tables/verification.tsv (with VeriSci's published F1s from verification.paper),
// models/verifier_{oracle,open}.safetensors, and results sections verification_<setting>[_<baseline>]
// and verification_cv (the choices and out-of-fold scores on train).

#include <filesystem>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"

namespace claimrag::experiment {

class SciFactVerifiers;

/// Runs the stage into `work` and files its numbers in `results`. Reads SciFact's original layout
/// through `data` and config.verification.paper.
void run_verification_stage(const ExperimentConfig& config, const SciFactVerifiers& data, const std::filesystem::path& work,
                            Results& results);

}  // namespace claimrag::experiment
