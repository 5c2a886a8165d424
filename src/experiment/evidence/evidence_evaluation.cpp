#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/experiment/evidence/evidence_evaluation.hpp"

#include <set>
#include <unordered_map>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/dataset/scifact.hpp"
#include "claimrag/experiment/retrieval/evaluate_stage.hpp"
#include "claimrag/experiment/evidence/evidence_training.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/tfidf/vectorizer.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::experiment {
namespace {

constexpr std::size_t kDepths[] = {1, 2};

std::vector<std::string> metric_names() {
  std::vector<std::string> names;
  for (const char* measure : {"exact_f1", "token_f1", "rationale_precision", "rationale_recall", "rationale_f1"}) {
    for (const std::size_t k : kDepths) names.push_back(std::string(measure) + "@" + std::to_string(k));
  }
  return names;
}

std::vector<evidence::SentenceRef> first(const evidence::ClaimEvidence* selection, std::size_t k) {
  std::vector<evidence::SentenceRef> sentences;
  if (selection == nullptr) return sentences;
  for (std::size_t i = 0; i < std::min(k, selection->selected.size()); ++i) sentences.push_back(selection->selected[i].sentence);
  return sentences;
}

std::string cell(const std::map<std::string, double>& values, const std::string& name) {
  const auto found = values.find(name);
  return found == values.end() ? "NA" : io::fixed(found->second, 6);
}

}  // namespace

EvidenceEvaluation score_evidence(const std::vector<ClaimGold>& gold, const std::vector<evidence::ClaimEvidence>& selections) {
  EvidenceEvaluation evaluation;
  evaluation.metric_names = metric_names();
  std::unordered_map<std::string, const evidence::ClaimEvidence*> by_id;
  for (const auto& selection : selections) by_id.emplace(selection.claim_id, &selection);
  std::set<std::string> gold_ids;
  std::map<std::string, double> sums;
  std::map<std::string, std::size_t> counts;
  for (const auto& claim : gold) {
    gold_ids.insert(claim.claim_id);
    const auto found = by_id.find(claim.claim_id);
    const evidence::ClaimEvidence* selection = found == by_id.end() ? nullptr : found->second;
    evaluation.claims_missing_from_selections += selection == nullptr ? 1 : 0;
    std::map<std::string, double> values;
    for (const std::size_t k : kDepths) {
      const auto selected = first(selection, k);
      const std::string at = "@" + std::to_string(k);
      values["exact_f1" + at] = metrics::exact_match(selected, claim.pseudo_gold).f1;
      values["token_f1" + at] = metrics::token_overlap(selected, claim.pseudo_gold).f1;
      if (claim.rationales) {
        const auto scores = metrics::rationale_match(selected, *claim.rationales);
        values["rationale_precision" + at] = scores.precision;
        values["rationale_recall" + at] = scores.recall;
        values["rationale_f1" + at] = scores.f1;
      }
    }
    evaluation.claims_with_rationales += claim.rationales ? 1 : 0;
    for (const auto& [name, value] : values) {
      sums[name] += value;
      ++counts[name];
    }
    evaluation.claim_ids.push_back(claim.claim_id);
    evaluation.per_claim.push_back(std::move(values));
  }
  for (const auto& [name, sum] : sums) evaluation.mean[name] = sum / static_cast<double>(counts[name]);
  for (const auto& selection : selections) evaluation.selections_outside_split += gold_ids.contains(selection.claim_id) ? 0 : 1;
  return evaluation;
}

EvidenceEvaluation evaluate_evidence(const EvidenceEvaluationRequest& request, const rerank::FeatureExtractor* corpus_models) {
  const EvidenceData data(request.data, request.min_sentence_characters);
  const auto qrels = dataset::load_split(request.data, request.split);
  const auto claims = dataset::queries_of_split(data.queries(), qrels, (request.data / "qrels" / (request.split + ".tsv")).string());
  std::optional<tfidf::TfidfVectorizer> fitted;
  const tfidf::TfidfVectorizer& vectorizer = pseudo_gold_vectorizer(data, corpus_models, fitted);

  std::vector<dataset::Abstract> abstracts;
  std::map<std::string, dataset::Claim> originals;
  if (!request.original.empty()) {
    abstracts = dataset::load_abstracts(request.original / "corpus.jsonl");
    for (auto& claim : dataset::load_claims(original_claims_file(request.original, request.split), &abstracts)) {
      originals.emplace(claim.id, std::move(claim));
    }
  }
  std::vector<ClaimGold> gold;
  for (const auto& claim : claims) {
    std::vector<std::string> relevant;
    for (const auto& [doc_id, grade] : qrels.judgments.at(claim.id)) {
      if (grade > 0) relevant.push_back(doc_id);
    }
    if (relevant.empty()) continue;
    ClaimGold entry{claim.id, evidence::pseudo_gold(claim.text, relevant, data.sentences(), vectorizer), std::nullopt};
    const auto original = originals.find(claim.id);
    if (original != originals.end() && !original->second.evidence.empty()) {
      entry.rationales = metrics::rationale_spans(original->second, abstracts);
    }
    gold.push_back(std::move(entry));
  }
  return score_evidence(gold, evidence::read_evidence(request.evidence));
}

void write_evidence_evaluation(const EvidenceEvaluation& evaluation, const std::string& source, const std::string& split,
                               const std::filesystem::path& out, const std::map<std::string, double>* paper) {
  const auto prefix = output_prefix(out);
  io::Table table;
  table.columns.push_back("claim_id");
  table.columns.insert(table.columns.end(), evaluation.metric_names.begin(), evaluation.metric_names.end());
  auto add_row = [&](const std::string& label, const std::map<std::string, double>& values) {
    std::vector<std::string> row{label};
    for (const auto& name : evaluation.metric_names) row.push_back(cell(values, name));
    table.rows.push_back(std::move(row));
  };
  for (std::size_t c = 0; c < evaluation.claim_ids.size(); ++c) add_row(evaluation.claim_ids[c], evaluation.per_claim[c]);
  add_row("mean", evaluation.mean);
  if (paper != nullptr) add_row("paper", *paper);
  io::AtomicFileSet files;  // the table and its JSON are replaced together or not at all
  io::write_tsv(table, files.stage(prefix.string() + ".tsv"));

  nlohmann::json per_claim = nlohmann::json::object();
  for (std::size_t c = 0; c < evaluation.claim_ids.size(); ++c) per_claim[evaluation.claim_ids[c]] = evaluation.per_claim[c];
  nlohmann::json json{{"evidence", source},
                      {"split", split},
                      {"claims", evaluation.claim_ids.size()},
                      {"claims_missing_from_selections", evaluation.claims_missing_from_selections},
                      {"selections_outside_split", evaluation.selections_outside_split},
                      {"claims_with_rationales", evaluation.claims_with_rationales},
                      {"metrics", evaluation.mean},
                      {"per_claim", per_claim}};
  if (paper != nullptr) json["paper"] = *paper;
  io::write_file_atomically(files.stage(prefix.string() + ".json"), io::json_text(json, prefix.string() + ".json", 2) + "\n");
  files.commit();
}

}  // namespace claimrag::experiment
