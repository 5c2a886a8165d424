#include "claimrag/experiment/stage.hpp"

#include <set>

#include "claimrag/bm25/index.hpp"
#include "claimrag/error.hpp"
#include "claimrag/metrics/paired_difference.hpp"
#include "claimrag/metrics/seen_documents.hpp"
#include "claimrag/verification/claim_folds.hpp"
#include "claimrag/experiment/retrieval/dense_stage.hpp"
#include "claimrag/experiment/retrieval/rerank_stage.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"

namespace claimrag::experiment {
namespace {

std::string qrels_source(const std::filesystem::path& beir, const std::string& split) {
  return (beir / "qrels" / (split + ".tsv")).string();
}

std::optional<std::set<std::string>> train_relevant(const std::filesystem::path& beir, const std::string& split) {
  if (!std::filesystem::exists(beir / "qrels" / (split + ".tsv"))) return std::nullopt;
  return metrics::relevant_documents(dataset::load_split(beir, split));
}

}  // namespace

StageContext::StageContext(const ExperimentConfig& config_, std::filesystem::path work_, Results& results_, StageTimer& timer_)
    : config(config_),
      work(std::move(work_)),
      beir(config_.data.beir),
      results(results_),
      timer(timer_),
      paper(load_paper_numbers(config_.paper)),
      metrics(metrics::parse_metric_list(config_.evaluation.metrics)),
      all_queries(dataset::load_queries(beir / "queries.jsonl")),
      test_qrels(dataset::load_split(beir, config_.data.test_split)),
      test_queries(dataset::queries_of_split(all_queries, test_qrels, qrels_source(beir, config_.data.test_split))),
      train_relevant_documents(train_relevant(beir, config_.data.train_split)) {}

StageContext::~StageContext() = default;

SciFactVerifiers& StageContext::scifact_verifiers() {
  if (!scifact_verifiers_) scifact_verifiers_ = std::make_unique<SciFactVerifiers>(config, work, results);
  return *scifact_verifiers_;
}

std::vector<dataset::Query> StageContext::queries_of(const std::string& split) const {
  return dataset::queries_of_split(all_queries, dataset::load_split(beir, split), qrels_source(beir, split));
}

void StageContext::evaluate_into(const std::string& section, const run::Run& run) {
  const auto& evaluation = evaluations[section] = metrics::evaluate_run(run, test_qrels, metrics);
  for (std::size_t m = 0; m < metrics.size(); ++m) results[section][metrics[m].name()] = evaluation.mean[m];

  if (!train_relevant_documents) return;
  // Sections of their own: `section` keeps the metrics a run alone gives (evaluate --run checks it).
  const auto split = metrics::split_by_seen_documents(evaluation, test_qrels, *train_relevant_documents);
  for (const auto& [suffix, group] : {std::pair{"_train_seen", &split.seen}, std::pair{"_train_unseen", &split.unseen}}) {
    auto& values = results[section + suffix];
    // A group without claims has no mean: its metrics are left out rather than shown as 0.
    for (std::size_t m = 0; m < metrics.size() && group->queries > 0; ++m) values[metrics[m].name()] = group->mean[m];
    values["claims"] = static_cast<double>(group->queries);
    values["claims_mixed"] = static_cast<double>(split.mixed);
  }
}

void check_stage_order(const std::vector<Stage>& stages) {
  std::set<std::string> names, written;
  for (const auto& stage : stages) {
    if (!names.insert(stage.name).second) throw UsageError("stages: \"" + stage.name + "\" is listed twice");
    for (const auto& input : stage.inputs) {
      if (!written.contains(input)) {
        throw UsageError("stages: \"" + stage.name + "\" reads " + input + ", which no stage before it writes");
      }
    }
    written.insert(stage.outputs.begin(), stage.outputs.end());
  }
}

void run_stages(const std::vector<Stage>& stages, StageContext& context) {
  for (const auto& stage : stages) stage.run(context);
  context.compare_rankings_with_bm25();
}

void StageContext::compare_rankings_with_bm25() {
  const auto reference = evaluations.find("bm25");
  if (reference == evaluations.end()) return;
  // Claims sharing a judged abstract are one cluster of the bootstrap: families are not
  // independent draws.
  std::vector<std::vector<std::string>> judged;
  for (const auto& query_id : reference->second.query_ids) {
    std::vector<std::string> documents;
    for (const auto& [doc_id, grade] : test_qrels.judgments.at(query_id)) documents.push_back(doc_id);
    judged.push_back(std::move(documents));
  }
  const auto families = verification::claim_families(judged);
  metrics::BootstrapOptions options;
  options.seed = config.seed;
  for (const auto& [section, evaluation] : evaluations) {
    if (section == "bm25") continue;
    const auto differences = metrics::paired_differences(evaluation, reference->second, families, options);
    auto& values = results[section + "_vs_bm25"];
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const std::string name = metrics[m].name();
      values[name + "_difference"] = differences[m].difference;
      values[name + "_lower"] = differences[m].lower;
      values[name + "_upper"] = differences[m].upper;
      values[name + "_p_value"] = differences[m].p_value;
    }
    values["resamples"] = static_cast<double>(options.resamples);
  }
}

}  // namespace claimrag::experiment
