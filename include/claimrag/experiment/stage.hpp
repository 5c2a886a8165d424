#pragma once
// A reproduction is a list of stages. A stage is a small object: a name (the one a configuration's
// "stages" list uses), the artefacts it reads and writes (paths relative to the reproduction
// folder, so the list can be checked before anything runs), and the work itself. Stages hand
// each other files through the folder and a few in-memory values through StageContext.
//
// Adding a stage: write a function returning a Stage (see pipeline.cpp's), add it to
// pipeline.cpp's registry, and name it in the configurations that want it. Its results go into
// context.results[section]; tables that only format results belong to reproduction_outputs.cpp.

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"
#include "claimrag/experiment/paper.hpp"
#include "claimrag/experiment/stage_timer.hpp"
#include "claimrag/metrics/ranking.hpp"
#include "claimrag/rerank/reranker.hpp"

namespace claimrag::bm25 {
class InvertedIndex;
}  // namespace claimrag::bm25

namespace claimrag::experiment {

class RerankResources;
struct DenseIndex;
class SciFactVerifiers;

/// What every stage may read and add to while a reproduction runs.
struct StageContext {
  StageContext(const ExperimentConfig& config, std::filesystem::path work, Results& results, StageTimer& timer);
  ~StageContext();
  StageContext(const StageContext&) = delete;
  StageContext& operator=(const StageContext&) = delete;

  const ExperimentConfig& config;
  const std::filesystem::path work;  ///< the folder being written (becomes --out at the end)
  const std::filesystem::path beir;  ///< config.data.beir
  Results& results;                  ///< every number, by section
  StageTimer& timer;                 ///< Table 9: a stage times its steps under their own names
  const PaperNumbers paper;          ///< config.paper, empty without one
  const std::vector<metrics::MetricSpec> metrics;  ///< config.evaluation.metrics
  const std::vector<dataset::Query> all_queries;   ///< queries.jsonl
  const dataset::Qrels test_qrels;                 ///< config.data.test_split
  const std::vector<dataset::Query> test_queries;  ///< the test split's claims, in qrels order
  /// The documents the train split judges relevant (metrics/seen_documents.hpp); absent when the
  /// dataset has no qrels file for config.data.train_split.
  const std::optional<std::set<std::string>> train_relevant_documents;

  // Made by one stage, used by later ones (null or empty until then).
  /// The bm25 stage's index, as saved in models/bm25; moved into rerank_resources by the rerank stage.
  std::unique_ptr<bm25::InvertedIndex> bm25_index;
  std::unique_ptr<RerankResources> rerank_resources;
  std::unique_ptr<DenseIndex> dense_index;  ///< the dense stage's model and encoded corpus, as saved
  std::optional<rerank::RerankerModel> reranker;
  std::map<std::string, double> evidence_token_f1;  ///< claim -> token F1@2 of the pseudo-gold-trained verifier
  std::map<std::string, double> verifier_top1;      ///< claim -> its best selected sentence's score
  std::map<std::string, metrics::Evaluation> evaluations;  ///< section -> its per-claim metrics (evaluate_into)

  /// After the stages: every evaluated section but "bm25" gets its paired difference from it per
  /// metric ("<section>_vs_bm25": "<metric>_difference", "_lower", "_upper", "_p_value", and
  /// "resamples"; metrics/paired_difference.hpp, claims sharing a judged abstract resampled
  /// together, the experiment's seed). Nothing without a "bm25" section.
  void compare_rankings_with_bm25();

  /// SciFact's original layout and the verifiers, for the stages after "verification" that judge
  /// claims (experiment/verification/scifact_verifiers.hpp); made on first use.
  SciFactVerifiers& scifact_verifiers();

  /// The split's claims (the test split's are loaded once, above).
  [[nodiscard]] std::vector<dataset::Query> queries_of(const std::string& split) const;
  /// Evaluates `run` on the test split with `metrics` and files the means under results[section];
  /// with a train split, also each metric's mean over the test claims whose relevant documents the
  /// train split judges relevant (section "<section>_train_seen") and over those with none of them
  /// ("<section>_train_unseen"), each with its "claims" and the "claims_mixed" in neither; a group
  /// without claims has only the counts.
  void evaluate_into(const std::string& section, const run::Run& run);

 private:
  std::unique_ptr<SciFactVerifiers> scifact_verifiers_;
};

struct Stage {
  std::string name;
  std::vector<std::string> inputs;   ///< artefacts read, relative to the reproduction folder
  std::vector<std::string> outputs;  ///< artefacts written, relative to the reproduction folder
  std::function<void(StageContext&)> run;
};

/// Throws UsageError naming the stage and the artefact when a stage reads something no earlier
/// stage of `stages` writes, or when two stages share a name.
void check_stage_order(const std::vector<Stage>& stages);

/// Runs `stages` in order.
void run_stages(const std::vector<Stage>& stages, StageContext& context);

}  // namespace claimrag::experiment
