#pragma once
// Internal to the text module: the closed word lists the negation rewriter reads.

#include <string>
#include <string_view>

namespace claimrag::text::detail {

/// True for the base form of a verb that scientific claims use as their main verb
/// ("cause", "increase", "play", "protect", ...). A closed list: a verb outside it is
/// never negated by insertion, which keeps plural nouns ("levels", "patients") safe.
bool is_claim_verb(std::string_view lower_base);

/// The base form of a regular simple past of a claim verb ("required" -> "require",
/// "identified" -> "identify", "occurred" -> "occur"), or "" when `lower_past` is not one.
std::string past_to_base(std::string_view lower_past);

/// True for words after which the next word cannot be a finite verb: articles,
/// determiners, possessives and prepositions ("the", "a", "of", "in", "to", ...).
bool is_determiner_or_preposition(std::string_view lower_word);

/// True for nouns that take no article ("evidence", "information", ...), so that
/// "no evidence" loses "no" instead of becoming "an evidence".
bool is_mass_noun(std::string_view lower_word);

/// True for past participles that may follow "has"/"have"/"had" as an auxiliary:
/// words ending in "-ed" or "-en" and a short list of irregular ones ("shown", "led", ...).
bool is_past_participle(std::string_view lower_word);

}  // namespace claimrag::text::detail
