#pragma once
// SciFact's gold evidence read as verification labels and predictions: the label of a (claim,
// abstract) pair, and the prediction a perfect system would make (the oracle upper bound, and
// what the metrics' tests feed back into the scorer).

#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/verification/claim_verifier.hpp"
#include "claimrag/verification/prediction.hpp"

namespace claimrag::verification {

/// The label shared by one document's rationale sets. Throws DataError naming `claim` and
/// `doc_id` when there is no set, a label is neither SUPPORT nor CONTRADICT, or the sets disagree.
Label gold_label(const dataset::Claim& claim, const std::string& doc_id);

/// The claim's own label: its first rationale set's (SUPPORT unless CONTRADICT), NOT_ENOUGH_INFO
/// for a claim without evidence. SciFact gives every evidence document of a claim one label.
Label claim_label(const dataset::Claim& claim);

/// Every gold evidence document of `claim` (in doc id order, as dataset::Claim keeps them) with
/// its gold label and all its rationale sentences, set after set in file order. A claim without
/// evidence gives a prediction of nothing. Scores 1.0 on all four official metrics whenever each
/// document's first set has at most 3 sentences (true of every dev pair; one train pair has a
/// single 4-sentence set and can never be rationalized).
ClaimPrediction gold_prediction(const dataset::Claim& claim);

}  // namespace claimrag::verification
