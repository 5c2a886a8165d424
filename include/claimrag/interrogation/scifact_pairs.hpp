#pragma once
// Labelled (claim, abstract) pairs from SciFact, for scoring interrogation against gold:
//  - every abstract a claim cites (or has evidence in): Support or Refute by its evidence label,
//    Neutral when the claim has no evidence there (SciFact's NOT ENOUGH INFO);
//  - the claim's top-k abstracts of a retrieval run that it neither cites nor has evidence in:
//    Neutral (retrieved non-evidence, the abstracts a RAG system would actually be shown).
// Pairs are "<claim id>:<doc id>", claim_id the SciFact claim id; a claim's cited abstracts come
// first in citation order, then retrieved ones in rank order. The evidence is the original
// layout's sentence array (SciFact's sentence indices); `{abstract}` gets "title\n" + sentences.

#include <cstddef>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/interrogation/answer.hpp"
#include "claimrag/interrogation/pair.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::interrogation {

struct LabelledPairs {
  std::vector<InterrogationPair> pairs;
  std::vector<Answer> gold;               ///< parallel to pairs
  std::vector<std::size_t> claim_index;   ///< parallel to pairs: the claim's position in the input
  std::vector<bool> retrieved;            ///< parallel to pairs: added from the run, not cited
};

/// A cited or retrieved document missing from `abstracts` is a DataError naming the claim.
LabelledPairs scifact_pairs(const std::vector<dataset::Claim>& claims, const verification::AbstractIndex& abstracts,
                            const run::Run& run, std::size_t retrieved_k);

}  // namespace claimrag::interrogation
