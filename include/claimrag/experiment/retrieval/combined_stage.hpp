#pragma once
// The combined confidence signal in the reproduction: fitted on the training claims' signals
// (their own runs through the same pipeline), applied to the test claims, compared by
// risk–coverage with the single signals, and its calibration reported.

#include <filesystem>
#include <random>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/evidence/gate_stage.hpp"
#include "claimrag/experiment/reproduce.hpp"

namespace claimrag::experiment {

/// Fits on `train` with config.gate.combined_features as features, scores the claims of `test`,
/// appends a "combined" row to `<folder>/risk_coverage.tsv`'s table (re-written), writes
/// `<folder>/combined_signal.tsv` (weights, temperature, ECE) and files the numbers under
/// results["combined"]. Each claim's calibrated probability goes to
/// `<claims_folder>/combined_signal_{train,test}.tsv` (gate::write_signal_file): the training
/// claims' are in-sample (three quarters fitted the regression, the rest its temperature).
void write_combined_signal(const GateData& train, const GateData& test, const ExperimentConfig& config,
                           const std::filesystem::path& folder, const std::filesystem::path& claims_folder, Results& results);

}  // namespace claimrag::experiment
