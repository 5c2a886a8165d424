#pragma once
// Scoring per-claim evidence selections (evidence/selection.hpp) and writing the scores as TSV and
// JSON, like the ranking evaluation.
//
// Against the pseudo-gold (the paper's Table 7), over the split's claims with at least one
// relevant document: exact_f1@k and token_f1@k of the first k selected sentences (k = 1, 2),
// metrics::exact_match and metrics::token_overlap. A claim of the split absent from the
// selections counts as an empty selection (0 on every measure) and is counted as missing;
// selections of claims outside the split are left out and counted.
// Against SciFact's gold rationales (beyond the paper), over the split's claims that have gold
// evidence: rationale_precision@k, rationale_recall@k, rationale_f1@k (metrics::rationale_match).
// Means are plain means over their claims (macro averages).

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/evidence/selection.hpp"
#include "claimrag/metrics/evidence.hpp"
#include "claimrag/rerank/features.hpp"

namespace claimrag::experiment {

/// What a claim's selection is scored against: its pseudo-gold sentences and, when the claim
/// has gold evidence, the spans of its rationale sentences.
struct ClaimGold {
  std::string claim_id;
  std::vector<evidence::SentenceRef> pseudo_gold;
  std::optional<std::vector<metrics::RationaleSpan>> rationales;
};

struct EvidenceEvaluation {
  std::vector<std::string> metric_names;                 ///< column order
  std::vector<std::string> claim_ids;                    ///< the scored claims, gold order
  std::vector<std::map<std::string, double>> per_claim;  ///< a metric absent where it does not apply
  std::map<std::string, double> mean;                    ///< a rationale metric absent when no claim has gold evidence
  std::size_t claims_missing_from_selections = 0;
  std::size_t selections_outside_split = 0;
  std::size_t claims_with_rationales = 0;
};

/// Scores `selections` against `gold` (one entry per claim to score, distinct ids).
EvidenceEvaluation score_evidence(const std::vector<ClaimGold>& gold, const std::vector<evidence::ClaimEvidence>& selections);

struct EvidenceEvaluationRequest {
  std::filesystem::path data;      ///< BEIR folder
  std::string split;
  std::filesystem::path evidence;  ///< JSON Lines of extract-evidence
  std::filesystem::path original;  ///< SciFact release layout; empty: no rationale metrics
  std::size_t min_sentence_characters = 20;
};

/// Loads the data, builds every claim's gold (pseudo-gold with a TF-IDF vectorizer fitted on
/// title + " " + text, max_features 50,000; rationales from original_claims_file) and scores.
/// `corpus_models` (optional): the reranker's extractor of a corpus, whose vectorizer is used
/// where it equals that one (pseudo_gold_vectorizer); the results are the same without it.
EvidenceEvaluation evaluate_evidence(const EvidenceEvaluationRequest& request,
                                     const rerank::FeatureExtractor* corpus_models = nullptr);

/// Writes `<prefix>.tsv` (one row per claim, "NA" where a metric does not apply, then "mean" and,
/// when `paper` is given, "paper" rows) and `<prefix>.json` (means, counts, per-claim values, and
/// the paper's numbers when given: experiment/paper.hpp's "evidence" section).
void write_evidence_evaluation(const EvidenceEvaluation& evaluation, const std::string& source, const std::string& split,
                               const std::filesystem::path& out, const std::map<std::string, double>* paper = nullptr);

}  // namespace claimrag::experiment
