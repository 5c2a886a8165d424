#include "claimrag/interrogation/scifact_pairs.hpp"

#include <algorithm>

#include "claimrag/error.hpp"

namespace claimrag::interrogation {
namespace {

Answer answer_of(verification::Label label) {
  switch (label) {
    case verification::Label::support: return Answer::support;
    case verification::Label::contradict: return Answer::refute;
    case verification::Label::not_enough_info: return Answer::neutral;
  }
  throw InternalError("unknown verification label");
}

InterrogationPair pair_of(const dataset::Claim& claim, const dataset::Abstract& abstract) {
  return make_pair(claim.id + ":" + abstract.doc_id, claim.id, claim.text,
                   verification::EvidenceDocument{abstract.doc_id, abstract.title, abstract.sentences, 0, 0.0});
}

const dataset::Abstract& find(const verification::AbstractIndex& abstracts, const dataset::Claim& claim,
                              const std::string& doc_id) {
  const auto found = abstracts.find(doc_id);
  if (found == abstracts.end()) {
    throw DataError("claim " + claim.id, "abstract " + doc_id + " is not in the corpus");
  }
  return *found->second;
}

}  // namespace

LabelledPairs scifact_pairs(const std::vector<dataset::Claim>& claims, const verification::AbstractIndex& abstracts,
                            const run::Run& run, std::size_t retrieved_k) {
  LabelledPairs labelled;
  const auto add = [&](const dataset::Claim& claim, std::size_t c, const std::string& doc_id, bool retrieved) {
    labelled.pairs.push_back(pair_of(claim, find(abstracts, claim, doc_id)));
    labelled.gold.push_back(answer_of(verification::gold_document(claim, doc_id).label));
    labelled.claim_index.push_back(c);
    labelled.retrieved.push_back(retrieved);
  };
  for (std::size_t c = 0; c < claims.size(); ++c) {
    const dataset::Claim& claim = claims[c];
    std::vector<std::string> judged;
    for (const auto& doc_id : claim.cited_doc_ids) {
      if (std::find(judged.begin(), judged.end(), doc_id) == judged.end()) judged.push_back(doc_id);
    }
    for (const auto& [doc_id, sets] : claim.evidence) {
      if (std::find(judged.begin(), judged.end(), doc_id) == judged.end()) judged.push_back(doc_id);
    }
    for (const auto& doc_id : judged) add(claim, c, doc_id, false);
    const run::Ranking* ranking = run.find(claim.id);
    if (ranking == nullptr) continue;
    for (std::size_t r = 0; r < ranking->documents.size() && r < retrieved_k; ++r) {
      const std::string& doc_id = ranking->documents[r].doc_id;
      if (std::find(judged.begin(), judged.end(), doc_id) == judged.end()) add(claim, c, doc_id, true);
    }
  }
  return labelled;
}

}  // namespace claimrag::interrogation
