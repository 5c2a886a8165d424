#pragma once
// The direction-word lexicon ("increases", "lower", "inhibits", ...) shared by the negation
// rewriter (which swaps a word for its opposite) and the relation features (which read its
// sign), so that a rewritten claim and the features always agree on what a direction word is.

#include <optional>
#include <string_view>
#include <vector>

namespace claimrag::text {

/// One direction word: its opposite (used by the rewriter) and its polarity, +1 for
/// "up / more / better / promote", -1 for "down / less / worse / inhibit".
struct DirectionWord {
  std::string_view opposite;
  int polarity = 0;
  /// One of the paraphrases abstracts use for the core words (attenuate, augment, boost, amplify,
  /// lessen, mitigate, strengthen / weaken, heighten, rise / fall, decline, prolong / shorten):
  /// RelationFeatureOptions::paraphrased_directions decides whether the relation features read them.
  bool paraphrase = false;
};

/// The entry of a lower-case word, or nothing when it is not a direction word.
/// Every entry's opposite is an entry of the opposite polarity.
std::optional<DirectionWord> find_direction_word(std::string_view lower_word);

/// Every word of the lexicon, sorted, without duplicates.
std::vector<std::string_view> direction_words();

}  // namespace claimrag::text
