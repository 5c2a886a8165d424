#pragma once
// Lexical features of the relation between a claim and an evidence text (for instance the
// concatenated rationale sentences of one abstract), for logistic models beside the verifier's
// network. They read what separates SUPPORT from CONTRADICT on SciFact: a negation or a null
// result on one side only, opposite direction words near the terms both sides share, numbers
// of the claim missing from the evidence.
//
// Words are maximal runs of ASCII letters and digits, with a '-' or '\'' between two of them
// kept inside ("non-significant", "doesn't", "IL-6"), lower-cased: the same words the negation
// rewriter reads, so that a negated claim moves the features the way its rule says.
// Cue lists (all lower-case words):
//   negation: not, no, never, without, neither, nor, none, nothing, cannot, unable, absence,
//     absent, lack, lacks, lacked, lacking, any word ending in "n't", and fail/fails/failed/
//     failing followed by "to"; a cue written in capitals ("NO") is an acronym, not a cue;
//   null result: similar, comparable, unchanged, unaffected, unrelated, insignificant,
//     nonsignificant, non-significant, and "no"/"not"/"nor" followed within two words by effect(s),
//     difference(s), differ(ed), association(s), associated, change(s/d), correlation, correlated,
//     relationship, related, significant(ly), impact, influence, alter(ed), affect(ed), benefit
//     (each "no"/"not"/"nor" counts once: "did not differ", "no significant difference");
//   direction: the lexicon of direction_words.hpp, +1 or -1 each, the opposite sign when a
//     negation cue is among the three words before it ("did not increase" counts -1);
//   hedge: may, might, could, suggest(s/ed/ing), possible, possibly, potential, potentially,
//     unclear, likely, unlikely, perhaps, putative, presumably, appear(s);
//   stop words: about 120 English function words (articles, pronouns, prepositions,
//     conjunctions, forms of be/have/do, modals).
// Counts (the *_count features) are capped at kRelationCountCap; every other feature is a share,
// a sign or a 0/1 flag, so every value is bounded whatever the texts' lengths.
// A number is a maximal run of digits with '.' or ',' between digits ("2.5", "1,000"), not
// glued to a letter on either side ("IL-6", "p53", "6MP", "40mg" hold no number).

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace claimrag::text {

/// Positions of the features in relation_features(); names in relation_feature_names().
enum class RelationFeature : std::size_t {
  claim_negation_count,          ///< negation cues in the claim
  evidence_negation_count,       ///< negation cues in the evidence
  negation_mismatch,             ///< 1 when exactly one side has a negation cue, else 0
  claim_null_count,              ///< null-result cues in the claim
  evidence_null_count,           ///< null-result cues in the evidence
  null_mismatch,                 ///< 1 when exactly one side has a null-result cue, else 0
  claim_polarity,                ///< sign (-1, 0, +1) of the summed direction words near shared words, claim
  evidence_polarity,             ///< the same in the evidence
  polarity_agreement,            ///< claim_polarity * evidence_polarity
  both_have_polarity,            ///< 1 when both polarities are non-zero, else 0
  claim_number_count,            ///< numbers in the claim (with repeats)
  claim_numbers_missing,         ///< fraction of the claim's distinct numbers absent from the evidence; 0 without any
  evidence_hedge_count,          ///< hedge cues in the evidence
  token_jaccard,                 ///< Jaccard of the paper tokenizer's token sets (token_set.hpp)
  claim_content_coverage,        ///< fraction of the claim's distinct non-stop-word tokens found in the evidence; 0 without any
};

/// Every *_count feature stops at this value, so that any length of text gives bounded features.
inline constexpr double kRelationCountCap = 3;

/// Number of relation features.
inline constexpr std::size_t kRelationFeatureCount = 15;

/// Options of relation_features.
struct RelationFeatureOptions {
  /// A direction word counts toward a side's polarity when it lies within this many words of
  /// a shared word: a non-stop-word, non-cue, non-direction word present on both sides.
  std::size_t window = 5;
  /// Read the paraphrase families of the direction lexicon (DirectionWord::paraphrase) too.
  bool paraphrased_directions = true;
};

/// The stable names of the features, in order: "claim_negation_count", ... (the enum's names).
std::span<const std::string_view, kRelationFeatureCount> relation_feature_names();

/// The features of (claim, evidence), in RelationFeature order; every value finite, the same
/// for the same input. Empty texts give zeros (and no division by zero).
std::vector<double> relation_features(std::string_view claim, std::string_view evidence,
                                      const RelationFeatureOptions& options = {});

}  // namespace claimrag::text
