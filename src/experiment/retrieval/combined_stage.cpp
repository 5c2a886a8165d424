#include "claimrag/experiment/retrieval/combined_stage.hpp"

#include "claimrag/gate/calibration.hpp"
#include "claimrag/gate/combined_signal.hpp"
#include "claimrag/gate/risk_coverage.hpp"
#include "claimrag/gate/signals.hpp"
#include "claimrag/io/table.hpp"

namespace claimrag::experiment {
namespace {

struct SignalMatrix {
  std::vector<std::vector<double>> rows;  ///< claims × signals
  std::vector<int> grounded;              ///< 1 when the system's top-10 holds a relevant document
  std::vector<gate::ClaimOutcome> claims;
};

SignalMatrix signal_matrix(const GateData& data, const std::vector<std::string>& signals) {
  SignalMatrix matrix;
  for (const auto& signal : signals) {
    const auto outcomes = data.outcomes(signal);
    if (matrix.rows.empty()) {
      matrix.rows.resize(outcomes.size());
      matrix.claims = outcomes;
      for (const auto& claim : outcomes) matrix.grounded.push_back(claim.hallucinated ? 0 : 1);
    }
    for (std::size_t i = 0; i < outcomes.size(); ++i) matrix.rows[i].push_back(outcomes[i].signal);
  }
  return matrix;
}

}  // namespace

void write_combined_signal(const GateData& train, const GateData& test, const ExperimentConfig& config,
                           const std::filesystem::path& folder, const std::filesystem::path& claims_folder, Results& results) {
  const auto& signals = config.gate.combined_features;
  const auto fitting = signal_matrix(train, signals);
  std::mt19937_64 rng(config.seed);
  const auto combined = gate::fit_combined_signal(signals, fitting.rows, fitting.grounded, {}, rng);

  auto scored = signal_matrix(test, signals);
  std::vector<double> probabilities;
  for (std::size_t i = 0; i < scored.claims.size(); ++i) {
    probabilities.push_back(combined.probability(scored.rows[i]));
    scored.claims[i].signal = probabilities.back();
  }
  const auto curve = gate::risk_coverage(scored.claims);
  const auto write_claims = [&](const SignalMatrix& matrix, const std::vector<double>& values, const char* split) {
    std::vector<std::string> ids;
    for (const auto& claim : matrix.claims) ids.push_back(claim.claim_id);
    gate::write_signal_file((claims_folder / ("combined_signal_" + std::string(split) + ".tsv")).string(), "combined", ids, values);
  };
  std::vector<double> fitted;
  for (const auto& row : fitting.rows) fitted.push_back(combined.probability(row));
  write_claims(fitting, fitted, "train");
  write_claims(scored, probabilities, "test");
  const double test_ece = gate::expected_calibration_error(probabilities, scored.grounded);

  io::Table curves{risk_coverage_columns(), {}};
  for (const auto& signal : config.gate.compared_signals) {
    append_risk_coverage(signal, gate::risk_coverage(test.outcomes(signal)), curves.rows);
  }
  append_risk_coverage("combined", curve, curves.rows);
  io::write_tsv(curves, folder / "risk_coverage.tsv");

  io::Table description{{"item", "value"}, {}};
  for (std::size_t f = 0; f < signals.size(); ++f) {
    description.rows.push_back({"weight:" + signals[f], io::fixed(combined.model.weights(static_cast<Eigen::Index>(f)), 6)});
  }
  description.rows.push_back({"intercept", io::fixed(combined.model.intercept, 6)});
  description.rows.push_back({"temperature", io::fixed(combined.temperature, 6)});
  description.rows.push_back({"held_out_ece_before", io::fixed(combined.held_out_ece_before, 6)});
  description.rows.push_back({"held_out_ece_after", io::fixed(combined.held_out_ece_after, 6)});
  description.rows.push_back({"test_ece", io::fixed(test_ece, 6)});
  io::write_tsv(description, folder / "combined_signal.tsv");

  results["risk_coverage"]["aurc:combined"] = curve.aurc;
  results["combined"]["temperature"] = combined.temperature;
  results["combined"]["held_out_ece_before"] = combined.held_out_ece_before;
  results["combined"]["held_out_ece_after"] = combined.held_out_ece_after;
  results["combined"]["test_ece"] = test_ece;
}

}  // namespace claimrag::experiment
