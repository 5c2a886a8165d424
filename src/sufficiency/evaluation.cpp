#include "claimrag/sufficiency/evaluation.hpp"

#include <algorithm>
#include <map>

#include "claimrag/error.hpp"
#include "claimrag/selective/calibration.hpp"
#include "claimrag/sufficiency/baselines.hpp"
#include "claimrag/sufficiency/method_numbers.hpp"

namespace claimrag::sufficiency {

std::vector<SetFeatures> example_features(const std::vector<ScoredExample>& scored) {
  std::vector<SetFeatures> features;
  features.reserve(scored.size());
  for (const auto& example : scored) features.push_back(set_features(example.pairs));
  return features;
}

namespace {

/// Rows of one split.
struct Split {
  std::vector<std::size_t> rows;
  std::vector<int> labels;
};

template <typename T>
std::vector<T> pick(const std::vector<T>& all, const std::vector<std::size_t>& rows) {
  std::vector<T> out;
  out.reserve(rows.size());
  for (const std::size_t r : rows) out.push_back(all[r]);
  return out;
}

linear::RowMatrixXd pick_rows(const linear::RowMatrixXd& X, const std::vector<std::size_t>& rows) {
  linear::RowMatrixXd out(static_cast<Eigen::Index>(rows.size()), X.cols());
  for (std::size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = X.row(static_cast<Eigen::Index>(rows[i]));
  return out;
}

/// A plain classifier's result: label argmax, answered when Supported, ranked by P(Supported).
MethodResult classifier_result(const std::string& name, const std::string& kind, const linear::RowMatrixXd& X,
                               const Split& train, const Split& test, double l2) {
  const LinearClassifier classifier = fit_classifier(pick_rows(X, train.rows), train.labels, 3, l2);
  const Eigen::MatrixXd p = classifier.probabilities(pick_rows(X, test.rows), false);
  const std::vector<int> predicted = arg_max_rows(p);
  std::vector<int> answered;
  std::vector<double> p_supported;
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    answered.push_back(predicted[i] == 0 ? 1 : 0);
    p_supported.push_back(p(static_cast<Eigen::Index>(i), 0));
  }
  return score_method(name, kind, test.labels, predicted, answered, p_supported, p_supported);
}

MethodResult sure_result(const std::string& name, const std::string& kind, const SureModel& model,
                         const std::vector<SetFeatures>& test_features, const std::vector<int>& gold, bool calibrated) {
  const auto predictions = predict_sure(model, test_features);
  std::vector<int> predicted, answered;
  std::vector<double> confidence, p_supported;
  for (const auto& p : predictions) {
    if (calibrated) {
      predicted.push_back(p.label);
      answered.push_back(p.answer ? 1 : 0);
      confidence.push_back(p.score);
      p_supported.push_back(p.probabilities[0]);
    } else {
      const int label = static_cast<int>(std::max_element(p.raw.begin(), p.raw.end()) - p.raw.begin());
      predicted.push_back(label);
      answered.push_back(label == 0 ? 1 : 0);
      confidence.push_back(p.raw[0]);
      p_supported.push_back(p.raw[0]);
    }
  }
  return score_method(name, kind, gold, predicted, answered, confidence, p_supported);
}

}  // namespace

std::vector<Counterfactual> counterfactual_swaps(std::span<const Example> examples, std::span<const std::array<double, 3>> probabilities,
                                                double& overall) {
  if (examples.size() != probabilities.size()) throw InternalError("counterfactual_swaps: sizes differ");
  std::map<std::string, std::size_t> full_of_group;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (examples[i].variant == Variant::full) full_of_group[examples[i].group] = i;
  }
  std::vector<Counterfactual> out;
  double total = 0, successes = 0;
  for (const Variant variant : {Variant::partial, Variant::hard_insufficient, Variant::irrelevant}) {
    Counterfactual c{std::string(variant_name(variant))};
    double delta = 0, success = 0;
    for (std::size_t i = 0; i < examples.size(); ++i) {
      if (examples[i].variant != variant) continue;
      const auto full = full_of_group.find(examples[i].group);
      if (full == full_of_group.end()) continue;
      const auto k = static_cast<std::size_t>(examples[full->second].label);
      const double d = probabilities[full->second][k] - probabilities[i][k];
      ++c.comparisons;
      delta += d;
      success += d > 0 ? 1 : 0;
    }
    if (c.comparisons > 0) c.success = success / static_cast<double>(c.comparisons), c.mean_delta = delta / static_cast<double>(c.comparisons);
    total += static_cast<double>(c.comparisons);
    successes += success;
    out.push_back(c);
  }
  overall = total > 0 ? successes / total : 0;
  return out;
}

double artifact_ratio(std::span<const MethodResult> methods, std::string* best_shortcut) {
  double best = -1, sure = 0;
  for (const auto& method : methods) {
    if (method.name == "sure_calibrated") sure = method.classification.macro_f1;
    if (method.kind == "shortcut" && method.classification.macro_f1 > best) {
      best = method.classification.macro_f1;
      if (best_shortcut != nullptr) *best_shortcut = method.name;
    }
  }
  return sure > 0 && best >= 0 ? best / sure : 0;
}

SufficiencyReport evaluate_sufficiency(const std::vector<Example>& examples, const std::vector<ScoredExample>& scored,
                                       const EvaluationOptions& options) {
  if (examples.size() != scored.size()) throw InternalError("evaluate_sufficiency: examples and scores differ in number");
  std::map<std::string, Split> splits{{"train", {}}, {"dev", {}}, {"test", {}}};
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const auto it = splits.find(examples[i].split);
    if (it == splits.end() || !examples[i].labelled) {
      throw UsageError("sufficiency: example " + examples[i].id + " is not a labelled train, dev or test example");
    }
    it->second.rows.push_back(i);
    it->second.labels.push_back(static_cast<int>(examples[i].label));
  }
  for (const auto& [name, split] : splits) {
    if (split.rows.empty()) throw UsageError("sufficiency: the benchmark has no " + name + " example");
  }
  const Split& train = splits.at("train");
  const Split& dev = splits.at("dev");
  const Split& test = splits.at("test");
  const double l2 = options.aggregator.l2;
  SufficiencyReport report;
  report.train = train.rows.size(), report.dev = dev.rows.size(), report.test = test.rows.size();
  const auto features = example_features(scored);
  const auto train_f = pick(features, train.rows), dev_f = pick(features, dev.rows), test_f = pick(features, test.rows);

  report.sure = fit_sure(train_f, train.labels, dev_f, dev.labels, columns_without({}), options.aggregator);
  {
    std::vector<double> raw, calibrated;
    std::vector<int> safe;
    for (const auto& p : predict_sure(report.sure, dev_f)) raw.push_back(p.raw[0]), calibrated.push_back(p.probabilities[0]);
    for (const int label : dev.labels) safe.push_back(label == 0 ? 1 : 0);
    report.dev_ece_raw = selective::binary_decision_ece(raw, safe, 15);
    report.dev_ece_calibrated = selective::binary_decision_ece(calibrated, safe, 15);
  }
  report.methods.push_back(sure_result("sure_raw", "sure", report.sure, test_f, test.labels, false));
  report.methods.push_back(sure_result("sure_calibrated", "sure", report.sure, test_f, test.labels, true));
  {
    std::vector<Example> test_examples = pick(examples, test.rows);
    std::vector<std::array<double, 3>> probabilities;
    for (const auto& p : predict_sure(report.sure, test_f)) probabilities.push_back(p.probabilities);
    report.counterfactuals = counterfactual_swaps(test_examples, probabilities, report.counterfactual_success);
  }
  for (std::size_t b = 0; b < kFeatureBlocks; ++b) {
    const FeatureBlock removed[] = {static_cast<FeatureBlock>(b)};
    const SureModel ablated = fit_sure(train_f, train.labels, dev_f, dev.labels, columns_without(removed), options.aggregator);
    report.methods.push_back(sure_result("sure_without_" + std::string(block_name(removed[0])), "ablation", ablated, test_f, test.labels, true));
  }
  const std::pair<const char*, Pooling> poolings[] = {{"max_pool", Pooling::max}, {"mean_pool", Pooling::mean}, {"top_k_pool", Pooling::top_k}};
  for (const auto& [name, pooling] : poolings) {
    report.methods.push_back(classifier_result(name, "pooling", pooled_features(scored, pooling), train, test, l2));
  }
  // Shortcuts.
  {
    std::array<double, 3> counts{};
    for (const int label : train.labels) counts[static_cast<std::size_t>(label)] += 1;
    const int majority = static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
    const std::vector<int> predicted(test.rows.size(), majority);
    const std::vector<int> answered(test.rows.size(), majority == 0 ? 1 : 0);
    const std::vector<double> share(test.rows.size(), counts[0] / static_cast<double>(train.rows.size()));
    report.methods.push_back(score_method("majority", "shortcut", test.labels, predicted, answered, share, share));
  }
  const auto claims = claim_texts(examples), evidence = evidence_texts(examples);
  tfidf::TfidfOptions tfidf_options;
  tfidf_options.max_features = options.tfidf_features;
  const auto claim_vectorizer = tfidf::TfidfVectorizer::fit(pick(claims, train.rows), tfidf_options);
  const auto evidence_vectorizer = tfidf::TfidfVectorizer::fit(pick(evidence, train.rows), tfidf_options);
  const auto claim_X = tfidf_rows(claim_vectorizer, claims), evidence_X = tfidf_rows(evidence_vectorizer, evidence);
  linear::RowMatrixXd concat(claim_X.rows(), claim_X.cols() + evidence_X.cols());
  concat << claim_X, evidence_X;
  report.methods.push_back(classifier_result("claim_only", "shortcut", claim_X, train, test, l2));
  report.methods.push_back(classifier_result("evidence_only", "shortcut", evidence_X, train, test, l2));
  report.methods.push_back(classifier_result("length_only", "shortcut", length_features(examples), train, test, l2));
  report.methods.push_back(classifier_result("overlap_only", "shortcut", overlap_features(examples, scored), train, test, l2));
  report.methods.push_back(classifier_result("concat_tfidf", "shortcut", concat, train, test, l2));
  report.artifact_ratio = artifact_ratio(report.methods, &report.best_shortcut);
  return report;
}

}  // namespace claimrag::sufficiency
