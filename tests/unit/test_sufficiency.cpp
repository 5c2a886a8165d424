#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/sufficiency/aggregator.hpp"
#include "claimrag/sufficiency/baselines.hpp"
#include "claimrag/sufficiency/classifier.hpp"
#include "claimrag/sufficiency/command.hpp"
#include "claimrag/sufficiency/evaluation.hpp"
#include "claimrag/sufficiency/features.hpp"
#include "claimrag/sufficiency/metrics.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"
#include "overlap_verifier.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using namespace claimrag::sufficiency;
using claimrag::testing::expect_error;

namespace {

double entropy3(double a, double b, double c) { return -(a * std::log(a) + b * std::log(b) + c * std::log(c)); }

const claimrag::testing::TempFolder& folder() {
  static const claimrag::testing::TempFolder scratch;
  return scratch;
}

std::filesystem::path scratch(const std::string& name) { return folder().path() / name; }

}  // namespace

TEST(SufficiencyMetrics, ClassF1AndMacroByHand) {
  const std::vector<int> gold{0, 0, 1, 2, 2}, predicted{0, 1, 1, 2, 0};
  const auto scores = classification_scores(gold, predicted);
  EXPECT_DOUBLE_EQ(scores.f1[0], 0.5);        // tp 1, fp 1, fn 1
  EXPECT_DOUBLE_EQ(scores.f1[1], 2.0 / 3.0);  // tp 1, fp 1
  EXPECT_DOUBLE_EQ(scores.f1[2], 2.0 / 3.0);  // tp 1, fn 1
  EXPECT_DOUBLE_EQ(scores.macro_f1, (0.5 + 2.0 / 3.0 + 2.0 / 3.0) / 3.0);
  EXPECT_DOUBLE_EQ(scores.accuracy, 0.6);
  // A class neither gold nor predicted has F1 0 and still counts.
  const std::vector<int> only{2, 2};
  EXPECT_DOUBLE_EQ(classification_scores(only, only).macro_f1, 1.0 / 3.0);
}

TEST(SufficiencyMetrics, SafeAndUnsafeF1ByHand) {
  // Safe = gold Supported: {1, 1, 0, 0}; answered {1, 0, 1, 0}.
  const std::vector<int> gold{0, 0, 2, 1}, answered{1, 0, 1, 0};
  const std::vector<double> confidence{0.9, 0.2, 0.8, 0.1}, p{0.9, 0.2, 0.8, 0.1};
  const auto scores = selective_scores(gold, answered, confidence, p);
  EXPECT_DOUBLE_EQ(scores.safe_f1, 0.5);    // tp 1, fp 1, fn 1
  EXPECT_DOUBLE_EQ(scores.unsafe_f1, 0.5);  // unsafe {0,0,1,1} vs abstained {0,1,0,1}
  // Ranked 0.9 (safe), 0.8 (unsafe), 0.2 (safe), 0.1 (unsafe).
  EXPECT_DOUBLE_EQ(scores.curve.risk_at_50, 0.5);
  EXPECT_DOUBLE_EQ(scores.curve.aurc, (0.0 + 0.5 + 1.0 / 3.0 + 0.5) / 4.0);
}

TEST(SufficiencyFeatures, TwoPassagesByHand) {
  const std::vector<PairScore> pairs{{0.6, 0.1, 0.3, 0.8, 0.5}, {0.1, 0.2, 0.7, 0.2, 0.75}};
  const auto f = set_features(pairs);
  const auto at = [&](const char* name) { return f[feature_index(name)]; };
  EXPECT_EQ(at("claim_supported"), 1.0);
  EXPECT_EQ(at("claim_refuted"), 0.0);
  EXPECT_EQ(at("support_share"), 0.5);
  EXPECT_EQ(at("refute_share"), 0.0);
  EXPECT_EQ(at("max_support"), 0.6);
  EXPECT_EQ(at("max_refute"), 0.2);
  EXPECT_DOUBLE_EQ(at("mean_neutral"), 0.5);
  EXPECT_EQ(at("second_support"), 0.1);
  EXPECT_EQ(at("max_rationale"), 0.8);
  EXPECT_EQ(at("second_rationale"), 0.2);
  const double ln3 = std::log(3.0);
  const double mean_h = (entropy3(0.6, 0.1, 0.3) + entropy3(0.1, 0.2, 0.7)) / 2.0;
  EXPECT_NEAR(at("mean_entropy"), mean_h / ln3, 1e-12);
  EXPECT_NEAR(at("disagreement"), (entropy3(0.35, 0.15, 0.5) - mean_h) / ln3, 1e-12);
  EXPECT_EQ(at("conflict"), 0.2);
  EXPECT_EQ(at("lexical_top1"), 0.75);
  EXPECT_EQ(at("lexical_margin"), 0.25);
  EXPECT_EQ(at("lexical_verifier_agreement"), 0.0);  // most overlapping: passage 2; least neutral: passage 1
  // u with a uniform π: (1 + disagreement + conflict + 0) / 4.
  const std::array<double, 3> pi{1.0 / 3, 1.0 / 3, 1.0 / 3};
  EXPECT_NEAR(selective_uncertainty(f, pi), (1.0 + at("disagreement") + 0.2) / 4.0, 1e-12);
}

TEST(SufficiencyFeatures, EmptySetAndPooling) {
  const auto f = set_features({});
  for (std::size_t j = 0; j < kFeatureCount; ++j) EXPECT_EQ(f[j], j == feature_index("mean_neutral") ? 1.0 : 0.0) << j;
  std::vector<ScoredExample> scored(2);
  scored[0].pairs = {{0.6, 0.1, 0.3, 0, 0}, {0.1, 0.2, 0.7, 0, 0}, {0.0, 0.5, 0.5, 0, 0}};
  const auto max = pooled_features(scored, Pooling::max);
  EXPECT_EQ(max(0, 0), 0.6);
  EXPECT_EQ(max(0, 1), 0.5);
  EXPECT_EQ(max(0, 2), 0.3);
  const auto top = pooled_features(scored, Pooling::top_k);  // the two least neutral: passages 1 and 3
  EXPECT_DOUBLE_EQ(top(0, 0), 0.3);
  EXPECT_DOUBLE_EQ(top(0, 1), 0.3);
  EXPECT_DOUBLE_EQ(top(0, 2), 0.4);
  const auto mean = pooled_features(scored, Pooling::mean);
  EXPECT_DOUBLE_EQ(mean(0, 1), 0.8 / 3.0);
  EXPECT_EQ(mean(1, 2), 1.0);  // no pairs: (0, 0, 1)
}

TEST(SufficiencyPairScoring, BadInputIsDefined) {
  const claimrag::testing::OverlapVerifier verifier;
  const auto make = [](std::string id, std::string claim, std::vector<std::string> evidence) {
    Example example;
    example.id = example.claim_id = std::move(id);
    example.claim = std::move(claim);
    example.evidence = std::move(evidence);
    return example;
  };
  const std::vector<Example> examples{
      make("a", "aspirin lowers risk", {}), make("b", "?!.", {"aspirin lowers risk"}),
      make("c", "aspirin lowers risk", {"aspirin lowers risk", " aspirin lowers risk ", "   ", "the sky is blue"}),
      make("d", "aspirin lowers risk", {"aspirin does not lower risk"})};
  const auto scored = score_examples(verifier, examples);
  EXPECT_EQ(scored[0].reason, "no evidence");
  EXPECT_EQ(scored[1].reason, "the claim has no word");
  EXPECT_TRUE(scored[1].pairs.empty());
  EXPECT_EQ(scored[2].reason, "");
  EXPECT_EQ(scored[2].duplicates_removed, 1u);
  EXPECT_EQ(scored[2].blank_removed, 1u);
  ASSERT_EQ(scored[2].pairs.size(), 2u);
  EXPECT_EQ(scored[2].kept, (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(scored[2].pairs[0].support, 0.7);  // the overlap verifier's SUPPORT
  EXPECT_EQ(scored[2].pairs[0].rationale, 1.0);
  EXPECT_EQ(scored[2].pairs[1].neutral, 0.8);  // nothing shared: NEI
  EXPECT_EQ(scored[3].pairs[0].refute, 0.7);   // "not" in the rationale: CONTRADICT
}

namespace {

/// Separable synthetic features: Supported has high max_support, Refuted high max_refute.
std::vector<SetFeatures> synthetic(std::size_t n, std::vector<int>& labels, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.05);
  std::vector<SetFeatures> rows;
  for (std::size_t i = 0; i < n; ++i) {
    const int label = static_cast<int>(i % 3);
    const double s = label == 0 ? 0.8 : 0.2, r = label == 1 ? 0.8 : 0.2;
    std::vector<PairScore> pairs{{s + noise(rng) * 0.1, r, 1.0 - s - r, s, 0.5}, {0.1, 0.1, 0.8, 0.1, 0.4 + noise(rng)}};
    for (auto& p : pairs) p.neutral = 1.0 - p.support - p.refute;
    rows.push_back(set_features(pairs));
    labels.push_back(label);
  }
  return rows;
}

}  // namespace

TEST(SufficiencyAggregator, FitsPredictsSavesAndLoads) {
  std::vector<int> train_labels, dev_labels;
  const auto train = synthetic(60, train_labels, 1), dev = synthetic(30, dev_labels, 2);
  const SureModel model = fit_sure(train, train_labels, dev, dev_labels, columns_without({}), {});
  const auto predictions = predict_sure(model, dev);
  std::vector<int> predicted;
  for (const auto& p : predictions) predicted.push_back(p.label);
  EXPECT_EQ(classification_scores(dev_labels, predicted).macro_f1, 1.0);
  for (const auto& p : predictions) {
    EXPECT_NEAR(p.score, p.probabilities[0] - model.beta * p.uncertainty, 1e-15);
    EXPECT_EQ(p.answer, p.label == 0 && p.score >= model.tau);
  }
  const auto file = scratch("aggregator.json");
  save_sure(model, file);
  const auto loaded = load_sure(file);
  const auto again = predict_sure(loaded, dev);
  for (std::size_t i = 0; i < again.size(); ++i) EXPECT_EQ(again[i].probabilities, predictions[i].probabilities);
  // Unjudged examples are Insufficient and never answered.
  const auto unjudged = predict_sure(model, dev, std::vector<bool>(dev.size(), true));
  EXPECT_EQ(unjudged[0].label, 2);
  EXPECT_FALSE(unjudged[0].answer);
  // Ablation columns: without the retrieval block, its three features are gone.
  const FeatureBlock retrieval[] = {FeatureBlock::retrieval};
  EXPECT_EQ(columns_without(retrieval).size(), kFeatureCount - 3);
  // Refusals: a NaN (not JSON) and an unknown feature.
  std::string text = io::read_file(file);
  io::write_file_atomically(file, std::string(text).replace(text.find("\"tau\": ") + 7, 1, "NaN,\"x\":"));
  EXPECT_THROW(load_sure(file), DataError);
  std::string renamed = text;
  renamed.replace(renamed.find("max_support"), 11, "max_suport_");
  io::write_file_atomically(file, renamed);
  EXPECT_THROW(load_sure(file), DataError);
}

TEST(SufficiencyCommand, ScoresFileRefusesNaNAndMismatchedPairs) {
  std::vector<int> train_labels, dev_labels;
  const auto train = synthetic(30, train_labels, 3), dev = synthetic(15, dev_labels, 4);
  const auto aggregator = scratch("command_aggregator.json");
  save_sure(fit_sure(train, train_labels, dev, dev_labels, columns_without({}), {}), aggregator);
  const auto examples = scratch("examples.jsonl");
  io::write_file_atomically(examples,
                            "{\"id\": \"x\", \"claim\": \"aspirin lowers risk\", \"evidence\": [\"aspirin lowers risk\", \"aspirin lowers risk\"]}\n"
                            "{\"id\": 7, \"claim\": \"...\", \"evidence\": []}\n");
  SufficiencyCommand command{.examples = examples, .model = {}, .open_verifier = {}, .scores = scratch("scores.jsonl"), .aggregator = aggregator, .out = scratch("out.jsonl")};
  io::write_file_atomically(command.scores, "{\"id\": \"x\", \"pairs\": [[0.7, 0.2, 0.1], [0.7, 0.2, 0.1]]}\n{\"id\": \"7\", \"pairs\": []}\n");
  run_sufficiency(command);
  const std::string out = io::read_file(command.out);
  EXPECT_NE(out.find("\"duplicates_removed\":1"), std::string::npos);
  EXPECT_NE(out.find("\"reason\":\"the claim has no word\""), std::string::npos);
  io::write_file_atomically(command.scores, "{\"id\": \"x\", \"pairs\": [[NaN, 0.2, 0.1], [0.7, 0.2, 0.1]]}\n");
  try {
    run_sufficiency(command);
    FAIL() << "NaN accepted";
  } catch (const DataError& error) {
    EXPECT_NE(std::string(error.what()).find("scores.jsonl:1"), std::string::npos) << error.what();
  }
  io::write_file_atomically(command.scores, "{\"id\": \"x\", \"pairs\": [[0.7, 0.2, 0.1]]}\n{\"id\": \"7\", \"pairs\": []}\n");
  EXPECT_THROW(run_sufficiency(command), DataError);
  io::write_file_atomically(command.scores, "{\"id\": \"x\", \"pairs\": [[0.7, 0.2, 0.2], [0.7, 0.2, 0.1]]}\n");
  EXPECT_THROW(run_sufficiency(command), DataError);
  command.model = "model.safetensors";
  EXPECT_THROW(run_sufficiency(command), UsageError);  // both a model and scores
}

TEST(SufficiencyExamples, ReaderRefusesMalformedLines) {
  const auto file = scratch("bad.jsonl");
  io::write_file_atomically(file, "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": \"not a list\"}\n");
  EXPECT_THROW(read_examples(file), DataError);
  io::write_file_atomically(file, "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": []}\n{\"id\": \"a\", \"claim\": \"c\", \"evidence\": []}\n");
  EXPECT_THROW(read_examples(file), DataError);
  io::write_file_atomically(file, "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": [], \"label\": \"Maybe\"}\n");
  EXPECT_THROW(read_examples(file), DataError);
  io::write_file_atomically(file, "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": [\"e\"], \"label\": \"Refuted\"}\n");
  const auto examples = read_examples(file);
  ASSERT_EQ(examples.size(), 1u);
  EXPECT_EQ(examples[0].label, SufficiencyLabel::refuted);
  EXPECT_TRUE(examples[0].labelled);
}

TEST(SufficiencyEvaluation, CounterfactualSwapsAndArtifactRatioByHand) {
  const auto example = [](std::string group, Variant variant, SufficiencyLabel label) {
    Example e;
    e.id = group + std::string(variant_name(variant));
    e.group = std::move(group);
    e.variant = variant;
    e.label = label;
    return e;
  };
  const std::vector<Example> examples{example("a", Variant::full, SufficiencyLabel::supported),
                                      example("a", Variant::hard_insufficient, SufficiencyLabel::insufficient),
                                      example("a", Variant::irrelevant, SufficiencyLabel::insufficient),
                                      example("b", Variant::full, SufficiencyLabel::refuted),
                                      example("b", Variant::irrelevant, SufficiencyLabel::insufficient),
                                      example("c", Variant::partial, SufficiencyLabel::insufficient)};  // no full: not compared
  const std::vector<std::array<double, 3>> p{{0.6, 0.1, 0.3}, {0.2, 0.1, 0.7}, {0.7, 0.1, 0.2},
                                             {0.1, 0.5, 0.4}, {0.2, 0.3, 0.5}, {0.9, 0.0, 0.1}};
  double overall = 0;
  const auto swaps = counterfactual_swaps(examples, p, overall);
  ASSERT_EQ(swaps.size(), 3u);
  EXPECT_EQ(swaps[0].comparisons, 0u);  // partial
  EXPECT_EQ(swaps[1].comparisons, 1u);  // hard: 0.6 − 0.2
  EXPECT_EQ(swaps[1].success, 1.0);
  EXPECT_NEAR(swaps[1].mean_delta, 0.4, 1e-15);
  EXPECT_EQ(swaps[2].comparisons, 2u);  // irrelevant: a 0.6 − 0.7 (fails), b P(Refuted) 0.5 − 0.3 (succeeds)
  EXPECT_EQ(swaps[2].success, 0.5);
  EXPECT_NEAR(swaps[2].mean_delta, (-0.1 + 0.2) / 2.0, 1e-15);
  EXPECT_NEAR(overall, 2.0 / 3.0, 1e-15);
  std::vector<MethodResult> methods(3);
  methods[0].name = "sure_calibrated", methods[0].kind = "sure", methods[0].classification.macro_f1 = 0.5;
  methods[1].name = "overlap_only", methods[1].kind = "shortcut", methods[1].classification.macro_f1 = 0.3;
  methods[2].name = "length_only", methods[2].kind = "shortcut", methods[2].classification.macro_f1 = 0.35;
  std::string best;
  EXPECT_DOUBLE_EQ(artifact_ratio(methods, &best), 0.7);
  EXPECT_EQ(best, "length_only");
}

TEST(SufficiencyClassifier, SameBytesForAnyEigenThreadCount) {
  // Large enough for Eigen to split its products over threads when it may.
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  linear::RowMatrixXd X(1200, 100);
  std::vector<int> labels(1200);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    for (Eigen::Index j = 0; j < X.cols(); ++j) X(i, j) = normal(rng);
    labels[static_cast<std::size_t>(i)] = X(i, 0) + 0.5 * X(i, 1) > 0.5 ? 0 : (X(i, 2) > 0 ? 1 : 2);
  }
  const int saved = Eigen::nbThreads();
  Eigen::setNbThreads(1);
  const auto one = fit_classifier(X, labels, 3, 1e-2);
  const Eigen::MatrixXd p_one = one.probabilities(X);
  Eigen::setNbThreads(2);
  const auto two = fit_classifier(X, labels, 3, 1e-2);
  const Eigen::MatrixXd p_two = two.probabilities(X);
  Eigen::setNbThreads(saved);
  EXPECT_TRUE(one.model.weights == two.model.weights);
  EXPECT_TRUE(p_one == p_two);
  EXPECT_EQ(Eigen::nbThreads(), saved);  // the guard restores it
}

TEST(SufficiencyClassifier, PriorCorrectionUndoesTheBalancedWeightsByHand) {
  // Classes of 6, 3 and 3 rows: balanced weights n / (K·n_k) = 12/18, 12/9, 12/9.
  linear::RowMatrixXd X(12, 1);
  std::vector<int> labels;
  for (int i = 0; i < 12; ++i) {
    const int label = i < 6 ? 2 : i < 9 ? 0 : 1;
    labels.push_back(label);
    X(i, 0) = label + 0.3 * (i % 3) - 0.3;
  }
  LinearClassifier classifier = fit_classifier(X, labels, 3, 0.1);
  ASSERT_EQ(classifier.class_weights.size(), 3);
  EXPECT_NEAR(classifier.class_weights(2), 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(classifier.class_weights(0), 4.0 / 3.0, 1e-15);
  calibrate(classifier, X, labels, /*prior_correction=*/true);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(classifier.logit_shift(k), -std::log(classifier.class_weights(k)), 1e-15);
  // Calibrated = softmax((logits + shift) / T), by hand for the first row.
  const Eigen::MatrixXd logits = classifier.logits(X);
  const Eigen::MatrixXd calibrated = classifier.probabilities(X, true);
  double sum = 0;
  std::array<double, 3> expected{};
  for (int k = 0; k < 3; ++k) sum += expected[static_cast<std::size_t>(k)] = std::exp((logits(0, k) + classifier.logit_shift(k)) / classifier.temperature);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(calibrated(0, k), expected[static_cast<std::size_t>(k)] / sum, 1e-12);
  // At temperature 1 the shift multiplies the odds of the majority class (2) against class 0 by
  // w_0 / w_2 = 2 on every row.
  const Eigen::MatrixXd raw = classifier.probabilities(X, false);
  classifier.temperature = 1.0;
  const Eigen::MatrixXd shifted = classifier.probabilities(X, true);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    EXPECT_NEAR((shifted(i, 2) / shifted(i, 0)) / (raw(i, 2) / raw(i, 0)), 2.0, 1e-9) << "row " << i;
  }
  calibrate(classifier, X, labels, /*prior_correction=*/false);
  EXPECT_EQ(classifier.logit_shift, Eigen::VectorXd::Zero(3));
}

TEST(SufficiencyAggregator, PriorCorrectedLabelsFollowTheBalancedRuleAndOldFilesLoad) {
  std::vector<int> train_labels, dev_labels;
  const auto train = synthetic(60, train_labels, 1), dev = synthetic(30, dev_labels, 2);
  AggregatorOptions options;
  options.prior_correction = true;
  const SureModel model = fit_sure(train, train_labels, dev, dev_labels, columns_without({}), options);
  for (const auto& p : predict_sure(model, dev)) {
    // The label maximises P(k)·w_k, w_k = e^(−shift_k).
    int best = 0;
    for (int k = 1; k < 3; ++k) {
      if (p.probabilities[static_cast<std::size_t>(k)] * std::exp(-model.classifier.logit_shift(k)) >
          p.probabilities[static_cast<std::size_t>(best)] * std::exp(-model.classifier.logit_shift(best))) {
        best = k;
      }
    }
    EXPECT_EQ(p.label, best);
  }
  const auto file = scratch("prior_corrected.json");
  save_sure(model, file);
  EXPECT_EQ(load_sure(file).classifier.logit_shift, model.classifier.logit_shift);
  // A file of format version 1 (written before the shift and the checksum existed) is refused.
  auto json = nlohmann::json::parse(io::read_file(file));
  json.erase("logit_shift");
  json.erase("checksum");
  json["version"] = 1;
  io::write_file_atomically(file, json.dump());
  expect_error<DataError>([&] { (void)load_sure(file); }, "not of format version 2");
}

TEST(SufficiencyCommand, ScoresFileRefusesUnknownIdsAndConflictingDuplicatePassages) {
  std::vector<int> train_labels, dev_labels;
  const auto train = synthetic(30, train_labels, 3), dev = synthetic(15, dev_labels, 4);
  const auto aggregator = scratch("strict_aggregator.json");
  save_sure(fit_sure(train, train_labels, dev, dev_labels, columns_without({}), {}), aggregator);
  const auto examples = scratch("strict_examples.jsonl");
  io::write_file_atomically(examples,
                            "{\"id\": \"x\", \"claim\": \"aspirin lowers risk\", \"evidence\": [\"aspirin lowers risk\", \" aspirin lowers risk\"]}\n");
  SufficiencyCommand command{.examples = examples, .model = {}, .open_verifier = {}, .scores = scratch("strict_scores.jsonl"), .aggregator = aggregator, .out = scratch("strict_out.jsonl")};
  // Line 2 scores an example that does not exist: a scores file of other examples.
  io::write_file_atomically(command.scores, "{\"id\": \"x\", \"pairs\": [[0.7, 0.2, 0.1], [0.7, 0.2, 0.1]]}\n"
                                            "{\"id\": \"y\", \"pairs\": [[0.7, 0.2, 0.1]]}\n");
  expect_error<DataError>([&] { run_sufficiency(command); }, "strict_scores.jsonl:2: no example has id \"y\"");
  // The passage is listed twice (the same text but for a space) with two different scores.
  io::write_file_atomically(command.scores, "{\"id\": \"x\", \"pairs\": [[0.7, 0.2, 0.1], [0.1, 0.2, 0.7]]}\n");
  expect_error<DataError>([&] { run_sufficiency(command); }, "strict_scores.jsonl:1: example \"x\" lists passage 0 again as passage 1");
  EXPECT_FALSE(std::filesystem::exists(command.out));
}

TEST(SufficiencyAggregator, AChangedValueOrARepeatedFeatureIsRefused) {
  std::vector<int> train_labels, dev_labels;
  const auto train = synthetic(30, train_labels, 3), dev = synthetic(15, dev_labels, 4);
  const auto file = scratch("checked_aggregator.json");
  save_sure(fit_sure(train, train_labels, dev, dev_labels, columns_without({}), {}), file);
  const std::string text = io::read_file(file);
  (void)load_sure(file);
  // One digit of the first weight changed: still valid JSON, still finite, but not what was fitted.
  std::string changed = text;
  const auto digit = changed.find_first_of("0123456789", changed.find("\"weights\""));
  changed[digit] = changed[digit] == '1' ? '2' : '1';
  io::write_file_atomically(file, changed);
  expect_error<DataError>([&] { (void)load_sure(file); }, "checksum mismatch");
  // A repeated feature with a checksum that matches (the file's rule: XXH64 of the sorted JSON
  // without "checksum"): refused for what it says, not for its checksum.
  auto json = nlohmann::json::parse(text);
  json["features"][1] = json["features"][0];
  json.erase("checksum");
  json["checksum"] = io::checksum_hex(json.dump());
  io::write_file_atomically(file, json.dump(1));
  expect_error<DataError>([&] { (void)load_sure(file); }, "is listed twice");
}

TEST(SufficiencyBench, AClaimIdOnTwoLinesIsRefusedWithBothLines) {
  const auto original = scratch("twice_original");
  io::write_file_atomically(original / "corpus.jsonl",
                            "{\"doc_id\": 1, \"title\": \"T\", \"abstract\": [\"Aspirin lowers risk.\", \"It does.\"]}\n");
  io::write_file_atomically(original / "claims_train.jsonl",
                            "{\"id\": 5, \"claim\": \"Aspirin lowers risk.\", \"cited_doc_ids\": [1]}\n"
                            "{\"id\": 5, \"claim\": \"Aspirin raises risk.\", \"cited_doc_ids\": [1]}\n");
  io::write_file_atomically(original / "claims_dev.jsonl", "");
  SufficiencyBenchCommand command;
  command.original = original;
  command.out = scratch("twice_bench.jsonl");
  expect_error<DataError>([&] { run_sufficiency_bench(command); }, "claims_train.jsonl:2: claim id 5 is already on line 1");
  EXPECT_FALSE(std::filesystem::exists(command.out));
}
