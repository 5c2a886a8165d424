#pragma once
// Features of one (claim, document, selected rationale) triple, what the label predictor reads.
//
// Columns (names in label_feature_names()):
//   selector_max        the highest sentence probability of the document
//   selector_top3       mean of the three highest (fewer when the document is shorter)
//   selector_count_capped  how many sentences reach τ, at most kSelectedCountCap (3)
//   selected_cosine     highest TF-IDF cosine to the claim among the rationale sentences
//   selected_jaccard    highest Jaccard overlap among them
//   selected_coverage   share of the claim's tokens found in the rationale
//   retrieved           1 when the document came from a retrieval run (rank ≥ 1)
//   inverse_rank        1 / retrieval rank (0 when given)
//   retrieval_score     ln(1 + retrieval score) (0 when given)
//   relation_*          text::relation_features(claim, the rationale's sentences joined by a space):
//                       negation and null-result mismatch, direction-word polarity, numbers, hedges
//   null_against_effect only with VerificationOptions::null_against_effect, last (see below)
// Every column is bounded whatever the evidence's length (property-tested in
// tests/unit/test_verifier_invariance.cpp): probabilities, shares and cosines in [0, 1], the count
// capped, the relation features' counts capped (text/relation_features.hpp).
// The rationale is the selected sentences, or the single best one when none reaches τ, so the
// text features always describe the document's most claim-like part.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/text/relation_features.hpp"
#include "claimrag/verification/claim_verifier.hpp"
#include "claimrag/verification/sentence_features.hpp"

namespace claimrag::verification {

/// The cap of selector_count_capped: the most sentences a rationale holds.
inline constexpr std::ptrdiff_t kSelectedCountCap = 3;

const std::vector<std::string>& label_feature_names();

/// The claim-only baseline's features: the claim's tokens hashed (XXH64 mod 32) into 32 binary
/// buckets, then ln(1 + distinct tokens). They see the claim and nothing of the evidence.
const std::vector<std::string>& claim_only_feature_names();
std::vector<double> claim_only_features(const ClaimText& claim);

/// One row of label_feature_names().size() values. `probabilities` has one entry per sentence of
/// `document`; `rationale` indexes them (may be empty only for a document without sentences).
std::vector<double> label_features(const std::string& claim_text, const ClaimText& claim, const DocumentText& document,
                                   const EvidenceDocument& source,
                                   const std::vector<double>& probabilities, const std::vector<std::size_t>& rationale,
                                   double tau, const text::RelationFeatureOptions& relation_options = {});

/// The name of the optional column null_against_effect.
inline constexpr std::string_view kNullAgainstEffectName = "null_against_effect";

/// 1 when the rationale says there was no effect while the claim asserts one, else 0, read from a
/// label_features row: a null-result cue in the rationale ("no effect", "did not differ",
/// "unchanged", ...), none in the claim, no negation in the claim, and a direction word of the
/// claim near the words both share (its polarity is not 0). The relation features count each of
/// these, but a linear model weighs them apart; this column is their conjunction.
double null_against_effect(const std::vector<double>& label_row);

/// The conflict cues a label_features row carries, each a sign that the rationale may say the
/// opposite of the claim (what VerificationOptions::free_text_contradict_cue asks for before γ
/// may call CONTRADICT): "negation" (a negation cue on one side only), "null_result" (a
/// null-result cue on one side only), "direction" (both sides have a direction near the words they
/// share, and the two disagree), "number" (some number of the claim absent from the rationale).
/// In that order; empty when none. Each reads the rationale's distinct sentences once, so
/// repeating a sentence adds no cue.
std::vector<std::string_view> conflict_cues(const std::vector<double>& label_row);
/// The same from text::relation_features' values.
std::vector<std::string_view> relation_conflict_cues(std::span<const double> relation);
/// The four cue names, in that order.
std::span<const std::string_view, 4> conflict_cue_names();

}  // namespace claimrag::verification
