#include "claimrag/experiment/verification/calibration_stage.hpp"

#include <spdlog/spdlog.h>

#include <map>
#include <ostream>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/verification/checker_verifier.hpp"
#include "claimrag/verification/labelled_pairs.hpp"
#include "claimrag/verification/threshold_calibration.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::experiment {
namespace {

// The rule whose threshold the verifier `source` names decides by, or a UsageError.
verification::ThresholdRule threshold_rule(const VerifierSource& source, const ExperimentConfig& config) {
  const auto kind = source_spec(source).kind;
  if (kind == "tei") return verification::ThresholdRule::decisive;
  if (kind == "checkpoint") {
    if (config.verification.checkpoint.stacked) {
      throw UsageError("the stacked verifier's labels come from its stacking model, not from a threshold: calibrate "
                       "reads a checkpoint's own rule (leave verification.checkpoint.stacked off)");
    }
    const auto checker = verification::parse_checker_kind(config.verification.checkpoint.checker);
    return checker == verification::CheckerKind::nli ? verification::ThresholdRule::decisive
                                                     : verification::ThresholdRule::score_above;
  }
  throw UsageError("--verifier " + (source.spec.empty() ? std::string("builtin") : source.spec) +
                   ": calibrate chooses the threshold of a rule on probabilities, that of checkpoint:DIR (with any "
                   "--checker) or tei:URL; the built-in verifier chooses its thresholds when it is trained, and an "
                   "LLM judge gives labels");
}

struct JudgedPairs {
  verification::LabelledPairs pairs;
  std::vector<verification::LabelDistribution> probabilities;
  std::vector<verification::Label> labels;  ///< the verifier's own, under the configured rule
  std::size_t failed = 0;
};

// Every pair judged in one call; a pair the verifier could not judge keeps (0, 0, 1) and is counted.
JudgedPairs judge_pairs(const std::filesystem::path& file, const VerifierSource& source, const ExperimentConfig& config) {
  JudgedPairs judged{verification::read_labelled_pairs(file), {}, {}, 0};
  const auto verifier = open_verifier(source, config);
  const auto verdicts = verification::verify_claims(*verifier, judged.pairs.inputs);
  for (const auto& verdict : verdicts) {
    const auto& document = verdict.documents.at(0);
    judged.probabilities.push_back(document.probabilities);
    judged.labels.push_back(document.label);
    judged.failed += document.failure.empty() ? 0 : 1;
  }
  if (judged.failed > 0) {
    throw DataError(file.string(), std::to_string(judged.failed) + " of " + std::to_string(verdicts.size()) +
                                       " pairs could not be judged by the verifier: a threshold chosen without them "
                                       "would not be the rule's");
  }
  return judged;
}

std::string metric_name(bool two_way) { return two_way ? "balanced_accuracy" : "macro_f1"; }

nlohmann::ordered_json rule_json(double threshold, bool two_way, const ExperimentConfig& config) {
  auto checkpoint = nlohmann::ordered_json::object();
  checkpoint["threshold"] = threshold;
  checkpoint["checker"] = config.verification.checkpoint.checker;
  if (config.verification.checkpoint.chunk_size != 0) checkpoint["chunk_size"] = config.verification.checkpoint.chunk_size;
  if (!config.verification.checkpoint.labels.empty()) checkpoint["labels"] = config.verification.checkpoint.labels;
  auto grounding = nlohmann::ordered_json::object();
  grounding["support_threshold"] = threshold;
  if (!two_way) grounding["conflict_threshold"] = threshold;
  return {{"verification", {{"checkpoint", std::move(checkpoint)}}}, {"grounding", std::move(grounding)}};
}

}  // namespace

std::filesystem::path calibration_report_path(const std::filesystem::path& out) {
  auto report = out;
  report.replace_extension(".calibration.json");
  return report;
}

void run_calibrate(const CalibrateRequest& request, const ExperimentConfig& config) {
  const auto rule = threshold_rule(request.source, config);
  const auto judged = judge_pairs(request.pairs, request.source, config);
  const auto& pairs = judged.pairs;
  verification::CalibrationOptions options;
  options.rule = rule;
  options.folds = request.folds;
  options.seed = config.seed;
  const auto result = verification::calibrate_threshold(judged.probabilities, pairs.gold, pairs.group_of, pairs.two_way, options);

  nlohmann::ordered_json report;
  report["program"] = "claimrag";
  report["verifier"] = verifier_record(request.source, config);
  report["pairs"] = {{"file", request.pairs.string()}, {"count", pairs.gold.size()}, {"claims", result.groups},
                     {"labels", pairs.two_way ? "two-way" : "three-way"}};
  report["metric"] = metric_name(pairs.two_way);
  report["rule"] = rule == verification::ThresholdRule::score_above ? "SUPPORT when P(SUPPORT) > threshold"
                                                                     : "NOT_ENOUGH_INFO when max(P(SUPPORT), P(CONTRADICT)) < threshold";
  report["grid"] = {{"from", 0.01}, {"to", 0.99}, {"step", 0.01}};
  report["cross_validation"] = {{"folds", result.folds},
                                {"seed", config.seed},
                                {"fold_thresholds", result.fold_thresholds},
                                {"score", result.cross_validated},
                                {"interval_95", {result.interval.lower, result.interval.upper}},
                                {"resamples", result.interval.resamples}};
  report["threshold"] = result.threshold;
  report["in_sample"] = {{"score_at_threshold", result.score}, {"score_at_default_0.5", result.default_score}};
  io::write_file_atomically(request.out, rule_json(result.threshold, pairs.two_way, config).dump(2) + "\n");
  io::write_file_atomically(calibration_report_path(request.out), report.dump(2) + "\n");
  spdlog::info("calibrated on {} pairs of {} claims: threshold {} ({} {:.4f} in sample, {:.4f} at 0.5); cross-validated "
               "{} {:.4f} [{:.4f}, {:.4f}] over {} folds -> {}",
               pairs.gold.size(), result.groups, result.threshold, metric_name(pairs.two_way), result.score,
               result.default_score, metric_name(pairs.two_way), result.cross_validated, result.interval.lower,
               result.interval.upper, result.folds, request.out.string());
}

void run_evaluate_pairs(const EvaluatePairsRequest& request, const ExperimentConfig& config, std::ostream& out) {
  const auto judged = judge_pairs(request.pairs, request.source, config);
  const auto& pairs = judged.pairs;
  const auto& predicted = judged.labels;
  std::map<std::string, std::vector<std::size_t>> by_dataset;
  for (std::size_t i = 0; i < pairs.gold.size(); ++i) by_dataset[pairs.datasets[i]].push_back(i);
  const std::string metric = metric_name(pairs.two_way);
  nlohmann::ordered_json datasets = nlohmann::ordered_json::array();
  std::string table = "dataset\tpairs\t" + metric + "\n";
  double sum = 0.0;
  for (const auto& [name, items] : by_dataset) {
    const double score = verification::labelling_score(pairs.gold, predicted, pairs.two_way, items);
    sum += score;
    datasets.push_back({{"dataset", name}, {"pairs", items.size()}, {metric, score}});
    out << (name.empty() ? "(no dataset)" : name) << '\t' << metric << '\t' << io::fixed(score, 6) << '\n';
    table += name + "\t" + std::to_string(items.size()) + "\t" + io::fixed(score, 6) + "\n";
  }
  const double mean = sum / static_cast<double>(by_dataset.size());
  const double overall = verification::labelling_score(pairs.gold, predicted, pairs.two_way);
  out << "mean over datasets\t" << metric << '\t' << io::fixed(mean, 6) << '\n';
  table += "mean\t" + std::to_string(pairs.gold.size()) + "\t" + io::fixed(mean, 6) + "\n";
  nlohmann::ordered_json scores{{"program", "claimrag"},
                                {"verifier", verifier_record(request.source, config)},
                                {"pairs", {{"file", request.pairs.string()}, {"count", pairs.gold.size()}}},
                                {"metric", metric},
                                {"datasets", std::move(datasets)},
                                {"mean_over_datasets", mean},
                                {"all_pairs", overall}};
  io::write_file_atomically(request.out.string() + ".json", scores.dump(2) + "\n");
  io::write_file_atomically(request.out.string() + ".tsv", table);
}

}  // namespace claimrag::experiment
