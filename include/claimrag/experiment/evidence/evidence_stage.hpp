#pragma once
// The evidence stage as `claimrag extract-evidence` and the reproduction run it: train the
// verifier on the train split (or load one), take for every claim of a split the candidate
// sentences of its top documents in a run, score them, and write the best as JSON Lines
// (evidence/selection.hpp) with `<out>.meta.json` beside them.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/evidence/selection.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/evidence/evidence_training.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/shard/shard_selection.hpp"

namespace claimrag::experiment {

/// The selections of `claims` from `run`: per claim, evidence::select_candidates over the top
/// config.candidate_documents documents, scored by `verifier`, the best config.selected kept.
/// A claim absent from the run, with an empty ranking, or whose top documents have no sentences
/// gets an empty selection with its reason. A ranked document absent from the corpus is a
/// DataError naming `run_source`.
std::vector<evidence::ClaimEvidence> extract_evidence(const EvidenceVerifier& verifier, const EvidenceData& data,
                                                      const std::vector<dataset::Query>& claims, const run::Run& run,
                                                      const EvidenceConfig& config, std::size_t scoring_batch_size,
                                                      const std::string& run_source);

struct ExtractEvidenceRequest {
  std::filesystem::path data;        ///< BEIR folder
  std::filesystem::path run;         ///< TREC run of the claims
  std::filesystem::path out;         ///< JSON Lines to write
  std::string split = "test";        ///< whose judged claims get evidence
  std::filesystem::path model;       ///< a saved verifier (verifier/model_io.hpp) to use instead of training one
  std::filesystem::path save_model;  ///< where to save the verifier used (optional)
  std::string rationales;            ///< "pseudo" or "gold"; empty: the configuration's
  std::filesystem::path original;    ///< SciFact release layout; empty: the configuration's
  /// The reranker's extractor of a corpus, whose models training reuses where they equal its own
  /// (verifier_training_pairs); optional, the outputs are the same without it.
  const rerank::FeatureExtractor* corpus_models = nullptr;
  bool log_progress = true;
  /// The shard of the split's claims to select evidence for (shard_selection.hpp); nullptr: all.
  /// The meta file's counts are then the shard's.
  shard::ShardSelection* shard = nullptr;
};

/// What the stage did (training counts stay 0 for a loaded verifier); `<out>.meta.json` records it.
struct ExtractEvidenceSummary {
  std::size_t training_pairs = 0;
  std::size_t positives = 0;
  std::size_t claims = 0;
  std::size_t claims_without_selection = 0;
  std::vector<double> epoch_losses;
};

/// Runs the whole stage and writes `request.out` and `<out without extension>.meta.json`.
ExtractEvidenceSummary run_extract_evidence(const ExtractEvidenceRequest& request, const ExperimentConfig& config);

}  // namespace claimrag::experiment
