#include "claimrag/sufficiency/aggregator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/selective/calibration.hpp"
#include "claimrag/selective/risk_coverage.hpp"
#include "claimrag/sufficiency/metrics.hpp"

namespace claimrag::sufficiency {

linear::RowMatrixXd feature_matrix(std::span<const SetFeatures> features, std::span<const std::size_t> columns) {
  linear::RowMatrixXd X(static_cast<Eigen::Index>(features.size()), static_cast<Eigen::Index>(columns.size()));
  for (std::size_t i = 0; i < features.size(); ++i) {
    for (std::size_t j = 0; j < columns.size(); ++j) X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = features[i][columns[j]];
  }
  return X;
}

std::vector<std::size_t> columns_without(std::span<const FeatureBlock> removed) {
  std::vector<std::size_t> columns;
  for (std::size_t j = 0; j < kFeatureCount; ++j) {
    if (std::find(removed.begin(), removed.end(), feature_block(j)) == removed.end()) columns.push_back(j);
  }
  return columns;
}

namespace {

/// The class a prediction names: the largest of P(k)·e^(−shift_k). With the prior correction's
/// shift this is P(k)·w_k, the rule the balanced fit was made for (macro-F1 weighs every class
/// alike), so correcting the probabilities to the real priors does not tilt the labels towards the
/// majority class; without a shift, the most probable class.
int decided_label(const LinearClassifier& classifier, const std::array<double, 3>& probabilities) {
  int best = 0;
  double best_value = -1;
  for (int k = 0; k < 3; ++k) {
    const double value = probabilities[static_cast<std::size_t>(k)] * std::exp(-classifier.logit_shift(k));
    if (value > best_value) best_value = value, best = k;
  }
  return best;
}

}  // namespace

std::vector<SurePrediction> predict_sure(const SureModel& model, std::span<const SetFeatures> features, const std::vector<bool>& unjudged) {
  const auto X = feature_matrix(features, model.columns);
  const Eigen::MatrixXd raw = model.classifier.probabilities(X, false);
  const Eigen::MatrixXd calibrated = model.classifier.probabilities(X, true);
  std::vector<SurePrediction> out(features.size());
  for (std::size_t i = 0; i < features.size(); ++i) {
    SurePrediction& p = out[i];
    const auto row = static_cast<Eigen::Index>(i);
    for (int k = 0; k < 3; ++k) {
      p.raw[static_cast<std::size_t>(k)] = raw(row, k);
      p.probabilities[static_cast<std::size_t>(k)] = calibrated(row, k);
    }
    if (!unjudged.empty() && unjudged[i]) p.raw = p.probabilities = {0.0, 0.0, 1.0};
    p.label = decided_label(model.classifier, p.probabilities);
    p.uncertainty = selective_uncertainty(features[i], p.probabilities);
    p.score = p.probabilities[0] - model.beta * p.uncertainty;
    p.answer = p.label == 0 && p.score >= model.tau && (unjudged.empty() || !unjudged[i]);
  }
  return out;
}

std::vector<SurePrediction> predict_scored(const SureModel& model, std::span<const ScoredExample> scored,
                                           std::vector<SetFeatures>* features) {
  std::vector<SetFeatures> own;
  auto& set = features != nullptr ? *features : own;
  set.clear();
  std::vector<bool> unjudged;
  for (const auto& example : scored) {
    set.push_back(set_features(example.pairs));
    unjudged.push_back(!example.reason.empty());
  }
  return predict_sure(model, set, unjudged);
}

SureModel fit_sure(std::span<const SetFeatures> train, std::span<const int> train_labels, std::span<const SetFeatures> dev,
                   std::span<const int> dev_labels, std::vector<std::size_t> columns, const AggregatorOptions& options) {
  if (options.beta_grid.empty()) throw UsageError("sufficiency: beta_grid is empty");
  SureModel model;
  model.columns = std::move(columns);
  model.classifier = fit_classifier(feature_matrix(train, model.columns), train_labels, 3, options.l2);
  calibrate(model.classifier, feature_matrix(dev, model.columns), dev_labels, options.prior_correction);
  {  // β: the smallest of the grid with the lowest dev AURC of s
    double chosen = options.beta_grid.front();
    double best = std::numeric_limits<double>::infinity();
    for (const double beta : options.beta_grid) {
      model.beta = beta;
      const auto predictions = predict_sure(model, dev);
      std::vector<selective::ScoredItem> items;
      for (std::size_t i = 0; i < predictions.size(); ++i) items.push_back({predictions[i].score, dev_labels[i] == 0 ? 0.0 : 1.0, false});
      const double aurc = selective::risk_coverage(items).aurc;
      if (aurc < best) best = aurc, chosen = beta;
    }
    model.beta = chosen;
  }
  model.tau = std::numeric_limits<double>::infinity();
  const auto predictions = predict_sure(model, dev);
  std::vector<double> candidates;
  for (const auto& p : predictions) {
    if (p.label == 0) candidates.push_back(p.score);
  }
  std::sort(candidates.begin(), candidates.end(), std::greater<>());
  std::vector<int> safe(dev_labels.size());
  for (std::size_t i = 0; i < safe.size(); ++i) safe[i] = dev_labels[i] == 0 ? 1 : 0;
  double best_f1 = -1, best_tau = candidates.empty() ? 1.0 : candidates.front();
  for (const double tau : candidates) {
    std::vector<int> answered(predictions.size());
    for (std::size_t i = 0; i < predictions.size(); ++i) answered[i] = predictions[i].label == 0 && predictions[i].score >= tau ? 1 : 0;
    const double f1 = binary_f1(safe, answered, 1);
    if (f1 > best_f1) best_f1 = f1, best_tau = tau;  // candidates descend: ties keep the larger τ
  }
  model.tau = best_tau;
  return model;
}

namespace {

constexpr const char* kFormat = "claimrag-sufficiency-aggregator";

// The checksum a file carries: of its JSON without the "checksum" field, keys sorted and numbers
// printed shortest-round-trip, so that the file's layout does not matter but every value does.
std::string content_checksum(nlohmann::json json) {
  json.erase("checksum");
  return io::checksum_hex(json.dump());
}

nlohmann::ordered_json vector_json(const Eigen::VectorXd& v) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v(i));
  return out;
}

}  // namespace

void save_sure(const SureModel& model, const std::filesystem::path& file) {
  nlohmann::ordered_json json{{"format", kFormat}, {"version", 2}};
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (const std::size_t c : model.columns) names.push_back(std::string(feature_names()[c]));
  json["features"] = names;
  json["mean"] = vector_json(model.classifier.mean.transpose());
  json["scale"] = vector_json(model.classifier.scale.transpose());
  nlohmann::ordered_json weights = nlohmann::ordered_json::array();
  for (Eigen::Index k = 0; k < model.classifier.model.weights.rows(); ++k) weights.push_back(vector_json(model.classifier.model.weights.row(k).transpose()));
  json["weights"] = weights;
  json["bias"] = vector_json(model.classifier.model.bias);
  json["logit_shift"] = vector_json(model.classifier.logit_shift);
  json["temperature"] = model.classifier.temperature;
  json["beta"] = model.beta;
  json["tau"] = model.tau;
  json["checksum"] = content_checksum(nlohmann::json::parse(json.dump()));
  io::write_file_atomically(file, io::json_text(json, file.string(), 1) + "\n");
}

SureModel load_sure(const std::filesystem::path& file) {
  const std::string name = file.string();
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(io::read_json_text(file, io::kModelInput));
  } catch (const nlohmann::json::exception& error) {
    throw DataError(name, std::string("not JSON: ") + error.what());
  }
  const auto fail = [&](const std::string& reason) { return DataError(name, reason); };
  try {
    if (json.at("format") != kFormat) throw fail("not a sufficiency aggregator");
    if (json.at("version") != 2) throw fail("not of format version 2 (earlier versions carry no checksum: fit it again)");
    if (!json.at("checksum").is_string() || json.at("checksum") != content_checksum(json)) {
      throw fail("checksum mismatch: the file was changed after it was written");
    }
    SureModel model;
    for (const auto& feature : json.at("features")) {
      const std::string feature_name = feature.get<std::string>();
      const auto names = feature_names();
      const auto it = std::find(names.begin(), names.end(), feature_name);
      if (it == names.end()) throw fail("unknown feature \"" + feature_name + "\"");
      const auto column = static_cast<std::size_t>(it - names.begin());
      if (std::find(model.columns.begin(), model.columns.end(), column) != model.columns.end()) {
        throw fail("feature \"" + feature_name + "\" is listed twice");
      }
      model.columns.push_back(static_cast<std::size_t>(it - names.begin()));
    }
    const auto d = static_cast<Eigen::Index>(model.columns.size());
    const auto read_vector = [&](const nlohmann::json& values, Eigen::Index size, const std::string& what) {
      if (!values.is_array() || static_cast<Eigen::Index>(values.size()) != size) throw fail("\"" + what + "\" must hold " + std::to_string(size) + " numbers");
      Eigen::VectorXd v(size);
      for (Eigen::Index i = 0; i < size; ++i) {
        const auto& x = values[static_cast<std::size_t>(i)];
        if (!x.is_number() || !std::isfinite(x.get<double>())) throw fail("\"" + what + "\" holds a value that is not a finite number");
        v(i) = x.get<double>();
      }
      return v;
    };
    model.classifier.mean = read_vector(json.at("mean"), d, "mean").transpose();
    model.classifier.scale = read_vector(json.at("scale"), d, "scale").transpose();
    if ((model.classifier.scale.array() <= 0).any()) throw fail("\"scale\" must be positive");
    const auto& weights = json.at("weights");
    if (!weights.is_array() || weights.size() != 3) throw fail("\"weights\" must hold 3 rows");
    model.classifier.model.weights.resize(3, d);
    for (Eigen::Index k = 0; k < 3; ++k) model.classifier.model.weights.row(k) = read_vector(weights[static_cast<std::size_t>(k)], d, "weights").transpose();
    model.classifier.model.bias = read_vector(json.at("bias"), 3, "bias");
    const auto scalar = [&](const char* key) {
      const auto& x = json.at(key);
      if (!x.is_number() || !std::isfinite(x.get<double>())) throw fail(std::string("\"") + key + "\" must be a finite number");
      return x.get<double>();
    };
    // Absent from the files written before prior correction existed: nothing is added.
    model.classifier.logit_shift = json.contains("logit_shift") ? read_vector(json.at("logit_shift"), 3, "logit_shift") : Eigen::VectorXd::Zero(3);
    model.classifier.temperature = scalar("temperature");
    if (!(model.classifier.temperature > 0)) throw fail("\"temperature\" must be positive");
    model.beta = scalar("beta");
    model.tau = scalar("tau");
    return model;
  } catch (const nlohmann::json::exception& error) {
    throw fail(std::string("malformed aggregator: ") + error.what());
  }
}

}  // namespace claimrag::sufficiency
