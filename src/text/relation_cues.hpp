#pragma once
// Internal to the text module: the closed word lists of the relation features, as documented
// in relation_features.hpp.

#include <string_view>

namespace claimrag::text::detail {

/// Single-word negation cues ("not", "never", "without", ..., words ending in "n't");
/// "fail(s/ed/ing) to" is matched by the caller, as it spans two words.
bool is_negation_word(std::string_view lower_word);

/// Words that state a null result on their own ("similar", "unchanged", ...).
bool is_null_word(std::string_view lower_word);

/// Words that make "no"/"not"/"nor" a null result when they follow within two words
/// ("effect", "difference", "significant", ...).
bool is_null_object(std::string_view lower_word);

/// Hedge cues ("may", "might", "suggest", ...).
bool is_hedge_word(std::string_view lower_word);

/// English function words, left out of shared words and of the content coverage.
bool is_stop_word(std::string_view lower_word);

}  // namespace claimrag::text::detail
