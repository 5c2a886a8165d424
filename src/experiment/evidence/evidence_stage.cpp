#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/experiment/evidence/evidence_stage.hpp"

#include <spdlog/spdlog.h>

#include <random>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/verifier/model_io.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/parallel_for.hpp"

namespace claimrag::experiment {
namespace {

struct ClaimCandidates {
  std::vector<evidence::Candidate> candidates;
  std::string reason;
};

ClaimCandidates candidates_of(const dataset::Query& claim, const run::Run& run, const EvidenceData& data,
                              const EvidenceConfig& config, const std::string& run_source) {
  const run::Ranking* ranking = run.find(claim.id);
  if (ranking == nullptr) return {{}, evidence::kNoRanking};
  if (ranking->documents.empty()) return {{}, evidence::kNoDocuments};
  return {evidence::select_candidates(claim.text, *ranking, data.sentences(),
                                      {config.candidate_documents, config.sentences_per_document}, run_source),
          evidence::kNoSentences};
}

std::filesystem::path meta_path(const std::filesystem::path& out) {
  std::filesystem::path meta = out;
  meta.replace_extension(".meta.json");
  return meta;
}

}  // namespace

std::vector<evidence::ClaimEvidence> extract_evidence(const EvidenceVerifier& verifier, const EvidenceData& data,
                                                      const std::vector<dataset::Query>& claims, const run::Run& run,
                                                      const EvidenceConfig& config, std::size_t scoring_batch_size,
                                                      const std::string& run_source) {
  // Each claim's candidates depend on that claim alone: the threads may take the claims in any order.
  std::vector<ClaimCandidates> per_claim(claims.size());
  parallel_for(claims.size(), [&](std::size_t c) { per_claim[c] = candidates_of(claims[c], run, data, config, run_source); });
  std::vector<std::string> claim_texts, sentence_texts;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    for (const auto& candidate : per_claim[c].candidates) {
      claim_texts.push_back(claims[c].text);
      sentence_texts.push_back(candidate.sentence.text);
    }
  }
  // One scoring call over every claim's pairs lets the batches fill across claims.
  const std::vector<double> scores = evidence_scores(verifier, claim_texts, sentence_texts, scoring_batch_size);
  std::vector<evidence::ClaimEvidence> selections;
  std::size_t next = 0;
  for (std::size_t c = 0; c < claims.size(); ++c) {
    const auto& candidates = per_claim[c].candidates;
    const std::vector<double> claim_scores(scores.begin() + static_cast<std::ptrdiff_t>(next),
                                           scores.begin() + static_cast<std::ptrdiff_t>(next + candidates.size()));
    next += candidates.size();
    selections.push_back(evidence::select_evidence(claims[c].id, claims[c].text, candidates, claim_scores, config.selected,
                                                   per_claim[c].reason));
  }
  return selections;
}

ExtractEvidenceSummary run_extract_evidence(const ExtractEvidenceRequest& request, const ExperimentConfig& config) {
  const std::string rationales = request.rationales.empty() ? config.verifier.rationales : request.rationales;
  const std::filesystem::path original = request.original.empty() ? std::filesystem::path(config.data.original) : request.original;
  const EvidenceData data(request.data, config.evidence.min_sentence_characters);
  const run::Run run = run::read_trec_run(request.run);
  ExtractEvidenceSummary summary;
  EvidenceVerifier verifier;
  nlohmann::json model_source;
  if (!request.model.empty()) {
    auto loaded = verifier::load_verifier(request.model);
    verifier.vocabulary = std::move(loaded.vocabulary);
    verifier.model = std::move(loaded.model);
    model_source = {{"file", request.model.string()}, {"checksum", io::file_checksum(request.model)}, {"metadata", loaded.metadata}};
    model_source["metadata"].erase("vocabulary");
  } else {
    std::mt19937_64 rng(config.seed);
    const auto pairs = verifier_training_pairs(data, config, config.data.train_split, rationales, original, rng,
                                                 request.corpus_models);
    for (const auto& pair : pairs) summary.positives += pair.label == evidence::kPositiveLabel ? 1 : 0;
    summary.training_pairs = pairs.size();
    if (request.log_progress) {
      spdlog::info("verifier training pairs ({} rationales): {} positives, {} negatives", rationales, summary.positives,
                   pairs.size() - summary.positives);
    }
    verifier = train_evidence_verifier(pairs, config.verifier, request.log_progress, rng);
    summary.epoch_losses = verifier.epoch_losses;
    model_source = {{"trained", true}, {"rationales", rationales}, {"training_pairs", summary.training_pairs},
                    {"training_positives", summary.positives}, {"epoch_losses", summary.epoch_losses}};
  }
  // The evidence, its meta and the saved verifier are replaced together or not at all.
  io::AtomicFileSet files;
  if (!request.save_model.empty()) {
    verifier::save_verifier(files.stage(request.save_model), *verifier.model, verifier.vocabulary,
                            {{"seed", std::to_string(config.seed)},
                             {"config_checksum", config.checksum},
                             {"corpus_checksum", data.corpus().checksum},
                             {"rationales", request.model.empty() ? rationales : "loaded"}});
  }

  const auto qrels = dataset::load_split(request.data, request.split);
  const auto claims = shard::keep_shard(
      dataset::queries_of_split(data.queries(), qrels, (request.data / "qrels" / (request.split + ".tsv")).string()), request.shard);
  const auto selections = extract_evidence(verifier, data, claims, run, config.evidence, config.verifier.scoring_batch_size,
                                           request.run.string());
  summary.claims = selections.size();
  for (const auto& selection : selections) summary.claims_without_selection += selection.selected.empty() ? 1 : 0;
  evidence::write_evidence(selections, files.stage(request.out));

  nlohmann::json meta{{"stage", "extract-evidence"},
                      {"program_version", CLAIMRAG_VERSION},
                      {"seed", config.seed},
                      {"config", {{"file", config.source}, {"checksum", config.checksum}, {"content", config.as_json}}},
                      {"corpus", {{"file", (request.data / "corpus.jsonl").string()}, {"checksum", data.corpus().checksum}}},
                      {"run", {{"file", request.run.string()}, {"checksum", io::file_checksum(request.run)}, {"tag", run.tag}}},
                      {"split", request.split},
                      {"verifier", model_source},
                      {"vocabulary_size", verifier.vocabulary.size()},
                      {"claims", summary.claims},
                      {"claims_without_selection", summary.claims_without_selection}};
  io::write_file_atomically(files.stage(meta_path(request.out)), io::json_text(meta, meta_path(request.out).string(), 2) + "\n");
  files.commit();
  if (request.log_progress) {
    spdlog::info("evidence for {} claims ({} without a selection) -> {}", summary.claims, summary.claims_without_selection,
                 request.out.string());
  }
  return summary;
}

}  // namespace claimrag::experiment
