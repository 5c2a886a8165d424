#include "verdict_scores.hpp"

#include "claimrag/verification/official_metrics.hpp"
#include "claimrag/verification/prediction.hpp"

namespace claimrag::verification::detail {
namespace {

// The gold claim as the official metrics read it, rebuilt from a labelled input's evidence.
dataset::Claim gold_claim(const LabelledInput& item) {
  dataset::Claim claim;
  claim.id = item.input.claim_id;
  claim.text = item.input.claim;
  for (const auto& [doc_id, gold] : item.evidence) {
    auto& sets = claim.evidence[doc_id];
    for (const auto& rationale : gold.rationale_sets) {
      sets.push_back({std::vector<int>(rationale.begin(), rationale.end()), std::string(label_name(gold.label))});
    }
  }
  return claim;
}

F1Scores f1(const PrecisionRecallF1& s) { return {s.precision, s.recall, s.f1}; }

}  // namespace

VerificationCounts verdict_counts(const ClaimVerdict& verdict, const LabelledInput& gold) {
  const ClaimPrediction prediction = to_prediction(verdict);
  return count_claim(&prediction, gold_claim(gold));
}

TaskScores verdict_scores(const std::vector<ClaimVerdict>& verdicts, const std::vector<const LabelledInput*>& gold) {
  VerificationCounts counts;
  for (std::size_t c = 0; c < verdicts.size(); ++c) {
    counts += verdict_counts(verdicts[c], *gold[c]);
  }
  const OfficialScores s = scores_from_counts(counts);
  return {f1(s.abstract_label_only), f1(s.abstract_rationalized), f1(s.sentence_selection), f1(s.sentence_label)};
}

TaskScores abstract_scores(const std::vector<ClaimVerdict>& verdicts, const std::vector<const LabelledInput*>& gold) {
  const auto is_passage = [](const std::string& doc_id) { return doc_id.find('#') != std::string::npos; };
  std::vector<ClaimVerdict> kept(verdicts.size());
  std::vector<LabelledInput> abstracts(gold.size());
  std::vector<const LabelledInput*> pointers;
  for (std::size_t c = 0; c < verdicts.size(); ++c) {
    kept[c].claim_id = verdicts[c].claim_id;
    for (const auto& document : verdicts[c].documents) {
      if (!is_passage(document.doc_id)) kept[c].documents.push_back(document);
    }
    // gold_claim reads the claim's id, text and evidence only.
    abstracts[c].input.claim_id = gold[c]->input.claim_id;
    abstracts[c].input.claim = gold[c]->input.claim;
    for (const auto& [doc_id, document] : gold[c]->evidence) {
      if (!is_passage(doc_id)) abstracts[c].evidence.emplace(doc_id, document);
    }
    pointers.push_back(&abstracts[c]);
  }
  return verdict_scores(kept, pointers);
}

}  // namespace claimrag::verification::detail
