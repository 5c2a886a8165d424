#include "claimrag/verification/gold.hpp"

#include "claimrag/error.hpp"

namespace claimrag::verification {

Label claim_label(const dataset::Claim& claim) {
  for (const auto& [doc_id, sets] : claim.evidence) {
    for (const auto& set : sets) return set.label == "CONTRADICT" ? Label::contradict : Label::support;
  }
  return Label::not_enough_info;
}

Label gold_label(const dataset::Claim& claim, const std::string& doc_id) {
  const auto found = claim.evidence.find(doc_id);
  const std::string where = "claim " + claim.id + ": document " + doc_id;
  if (found == claim.evidence.end() || found->second.empty()) throw DataError(where + " has no gold rationale set");
  const std::string& name = found->second.front().label;
  if (name != "SUPPORT" && name != "CONTRADICT") throw DataError(where + " has gold label \"" + name + "\"");
  for (const auto& set : found->second) {
    if (set.label != name) throw DataError(where + ": the rationale sets disagree on the label");
  }
  return name == "SUPPORT" ? Label::support : Label::contradict;
}

ClaimPrediction gold_prediction(const dataset::Claim& claim) {
  ClaimPrediction prediction;
  prediction.claim_id = claim.id;
  for (const auto& [doc_id, sets] : claim.evidence) {
    DocumentPrediction document;
    document.doc_id = doc_id;
    document.label = gold_label(claim, doc_id);
    for (const auto& set : sets) {
      for (const int index : set.sentences) {
        if (index < 0) throw DataError("claim " + claim.id + ": document " + doc_id + " has a negative sentence index");
        document.sentences.push_back(static_cast<std::size_t>(index));
      }
    }
    prediction.documents.push_back(std::move(document));
  }
  return prediction;
}

}  // namespace claimrag::verification
