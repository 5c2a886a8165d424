#pragma once
// Twelve toy claims about aspirin and headache (every second one negated, every third one without
// evidence) against four-sentence documents: enough for the verifier's trainer to fit a selector
// and a label model in milliseconds, shared by the verifier's unit tests.

#include <string>
#include <vector>

#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::testing {

/// A training claim with one document whose sentence 1 is its evidence: SUPPORT or CONTRADICT
/// as `label` says, or no evidence (NOT_ENOUGH_INFO) when `label` is NOT_ENOUGH_INFO.
inline verification::LabelledInput claim_with_one_document(const std::string& id, const std::string& claim,
                                                           std::vector<std::string> sentences, verification::Label label) {
  verification::LabelledInput item;
  item.input.claim_id = id;
  item.input.claim = claim;
  verification::EvidenceDocument doc{"d" + id, "title", std::move(sentences), 0, 0.0};
  verification::GoldDocument gold;
  if (label != verification::Label::not_enough_info) {
    gold.label = label;
    gold.rationale_sets = {{1}};
    item.evidence.emplace(doc.doc_id, gold);
  }
  item.family_doc_ids = {doc.doc_id};
  item.input.documents.push_back(doc);
  item.gold.push_back(gold);
  return item;
}

inline verification::LabelledInput toy_claim(int i) {
  const bool negated = i % 2 == 1;
  const bool nei = i % 3 == 2;
  const std::string n = std::to_string(i);
  return claim_with_one_document(
      n, negated ? "aspirin does not reduce headache " + n : "aspirin reduces headache " + n,
      {"patients were enrolled in the study", nei ? "coffee was served to the nurses" : "aspirin reduces headache pain in adults",
       "the weather was sunny", "aspirin tablets were given to headache patients"},
      nei ? verification::Label::not_enough_info : negated ? verification::Label::contradict : verification::Label::support);
}

inline verification::VerifierTrainingData toy_data() {
  verification::VerifierTrainingData data;
  for (int i = 0; i < 12; ++i) data.claims.push_back(toy_claim(i));
  data.corpus_texts = {"aspirin reduces headache pain", "coffee nurses weather sunny", "patients enrolled study tablets"};
  return data;
}

inline verification::VerificationOptions toy_options() {
  verification::VerificationOptions options;
  options.folds = 3;
  return options;
}

inline std::vector<verification::VerificationInput> inputs_of(const verification::VerifierTrainingData& data) {
  std::vector<verification::VerificationInput> inputs;
  for (const auto& item : data.claims) inputs.push_back(item.input);
  inputs.push_back({"empty", "no documents at all", {}});
  return inputs;
}


}  // namespace claimrag::testing
