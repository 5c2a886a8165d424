#pragma once
// SURE-RAG's aggregator: a multinomial logistic regression (classifier.hpp) over set features
// (features.hpp) → Supported / Refuted / Insufficient, temperature-calibrated, with the selective
// score s = P(Supported) − β·u (u: selective_uncertainty) and the rule: answer iff the label is
// Supported and s ≥ τ.
//
// Fitting: the regression on the train split (balanced class weights); on the dev split only,
// then: the calibration (with `prior_correction`, the shift that undoes the class weights, then
// the temperature by NLL; classifier.hpp), β from `beta_grid` minimising the AURC of s (ties: the smaller β), and τ maximising the
// safe-F1 of the answer decision over the dev values of s (ties: the larger τ). The test split is
// never read.
//
// Saved as JSON (format "claimrag-sufficiency-aggregator", version 1): feature names, the
// standardisation, weights, bias, logit shift (absent in older files: none), temperature, β, τ.
// The label is the class with the largest P(k)·e^(−shift_k): the balanced rule, whatever the
// calibration does to the probabilities. A non-finite number, a feature name this
// program does not know or shapes that do not fit are refused at load (DataError naming the file).

#include <array>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "claimrag/sufficiency/classifier.hpp"
#include "claimrag/sufficiency/features.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"

namespace claimrag::sufficiency {

struct AggregatorOptions {
  double l2 = 1e-2;
  std::vector<double> beta_grid{0.0, 0.25, 0.5, 0.75, 1.0};
  /// Calibration undoes the balanced class weights before the temperature (classifier.hpp).
  bool prior_correction = false;
};

struct SureModel {
  std::vector<std::size_t> columns;  ///< indices of the features read
  LinearClassifier classifier;
  double beta = 0, tau = 0;
};

struct SurePrediction {
  std::array<double, 3> raw{};         ///< before the temperature
  std::array<double, 3> probabilities{};  ///< calibrated
  int label = 2;
  double uncertainty = 0, score = 0;   ///< u and s
  bool answer = false;
};

/// The n×|columns| matrix of the chosen features.
linear::RowMatrixXd feature_matrix(std::span<const SetFeatures> features, std::span<const std::size_t> columns);

/// Every feature except those of the blocks in `removed`.
std::vector<std::size_t> columns_without(std::span<const FeatureBlock> removed);

/// Fits as described above; labels in [0, 3).
SureModel fit_sure(std::span<const SetFeatures> train, std::span<const int> train_labels, std::span<const SetFeatures> dev,
                   std::span<const int> dev_labels, std::vector<std::size_t> columns, const AggregatorOptions& options);

/// Predictions; an example flagged `unjudged` (no evidence, a claim without words) is Insufficient
/// with probabilities (0, 0, 1) and never answered.
std::vector<SurePrediction> predict_sure(const SureModel& model, std::span<const SetFeatures> features,
                                         const std::vector<bool>& unjudged = {});

/// predict_sure of scored examples: each one's set features (also stored in *features when given),
/// unjudged when its scoring gave a reason.
std::vector<SurePrediction> predict_scored(const SureModel& model, std::span<const ScoredExample> scored,
                                           std::vector<SetFeatures>* features = nullptr);

void save_sure(const SureModel& model, const std::filesystem::path& file);
SureModel load_sure(const std::filesystem::path& file);

}  // namespace claimrag::sufficiency
