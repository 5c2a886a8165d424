#pragma once
// SciFact's official verification metrics (allenai/scifact, verisci/evaluate/lib/metrics.py),
// from pooled counts over claims. A predicted document labelled NOT_ENOUGH_INFO is ignored.
//
// Abstract level, per claim: relevant = its gold evidence documents; each non-NEI predicted
// document is retrieved. Label-only: the document is a gold evidence document and the label is
// its gold label. Label+Rationale: also, some gold rationale set lies wholly within the FIRST 3
// predicted sentences (prediction order).
// Sentence level, per claim: relevant = the sentences of all its gold rationale sets; each non-NEI
// predicted document adds all its predicted sentences (no cap) to retrieved. Selection: a
// predicted sentence of a gold evidence document counts when it lies in a gold rationale set
// whose every sentence was predicted. Selection+Label: the same count when the document's label
// is also right, else 0.
// Precision = correct / retrieved, recall = correct / relevant, F1 = 2PR / (P + R); each is 0
// when its denominator is 0 (F1 is 0 when P + R is 0), so no NaN is ever produced.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/verification/prediction.hpp"

namespace claimrag::verification {

/// How many abstract sentences the abstract-level metric reads from a prediction.
inline constexpr std::size_t max_abstract_sentences = 3;

/// The counts behind the four metrics, for one claim or pooled over many (sum with +=).
struct VerificationCounts {
  std::size_t abstract_relevant = 0;
  std::size_t abstract_retrieved = 0;
  std::size_t abstract_correct_label_only = 0;
  std::size_t abstract_correct_rationalized = 0;
  std::size_t sentence_relevant = 0;
  std::size_t sentence_retrieved = 0;
  std::size_t sentence_correct_selection = 0;
  std::size_t sentence_correct_label = 0;

  VerificationCounts& operator+=(const VerificationCounts& other);
  bool operator==(const VerificationCounts&) const = default;
};

struct PrecisionRecallF1 {
  double precision = 0.0;
  double recall = 0.0;
  double f1 = 0.0;
};

/// The four official metrics.
struct OfficialScores {
  PrecisionRecallF1 abstract_label_only;
  PrecisionRecallF1 abstract_rationalized;  ///< "Label+Rationale"
  PrecisionRecallF1 sentence_selection;     ///< "Selection only"
  PrecisionRecallF1 sentence_label;         ///< "Selection+Label"
};

/// The metrics' names, in the order of OfficialScores: "abstract_label_only",
/// "abstract_rationalized", "sentence_selection", "sentence_label".
const std::vector<std::string>& official_metric_names();

/// P, R and F1 of `correct` out of `retrieved` predictions and `relevant` gold items (0 for a
/// zero denominator, see above).
PrecisionRecallF1 precision_recall_f1(std::size_t correct, std::size_t retrieved, std::size_t relevant);

/// The four metrics of pooled `counts` (sum per-claim counts first, e.g. over a bootstrap sample).
OfficialScores scores_from_counts(const VerificationCounts& counts);

/// The counts of one claim: `prediction` may be null (the claim predicts nothing). The
/// prediction's claim id is not compared with the gold's. Throws DataError when gold rationale
/// sets of one document disagree on the label or share a sentence.
VerificationCounts count_claim(const ClaimPrediction* prediction, const dataset::Claim& gold);

struct VerificationMetrics {
  OfficialScores scores;
  VerificationCounts counts;                ///< pooled over every gold claim
  std::vector<std::string> claim_ids;       ///< the gold claims, in gold order
  std::vector<VerificationCounts> per_claim;  ///< parallel to claim_ids
  std::size_t claims_without_prediction = 0;  ///< gold claims absent from the predictions (scored as predicting nothing)
  std::size_t documents_over_sentence_cap = 0;  ///< non-NEI predicted documents with more than 3 sentences
};

/// Scores `predictions` against the claims of `gold` (every claim counts, those without gold
/// evidence too: their non-NEI predictions are retrieved but never correct). Usable on any
/// subset of claims, e.g. a cross-validation fold. Throws DataError for a prediction whose claim
/// is not in `gold` or is predicted twice (naming its line when it was read from a file) and for a
/// gold claim id given twice; predictions need not be in gold order.
VerificationMetrics score_predictions(std::span<const ClaimPrediction> predictions, std::span<const dataset::Claim> gold);

}  // namespace claimrag::verification
