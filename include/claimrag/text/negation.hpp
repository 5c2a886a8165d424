#pragma once
// A deterministic, rule-based claim negation rewriter, used to augment verifier training data
// (a SUPPORT claim negated is a CONTRADICT claim against the same rationale) and to build
// probes on a negated claim.
//
// Exactly one rule fires: the first family below that matches, at its first (leftmost) match.
//  1. Remove an existing negation (the leftmost cue):
//     "does/do/did not [adverb-ly] V" and "doesn't/don't/didn't V" -> V inflected like the
//       auxiliary ("does not increase" -> "increases", "did not improve" -> "improved");
//     "cannot"/"can't" -> "can"; "isn't", "aren't", "wasn't", "won't", ... -> "is", "are", "was",
//       "will", ...;
//     "not" (after "is", "are", "was", "has", "may", ..., or alone, as in "not associated") is
//       removed, except in "not only", "or not", "if not" and a contrast ("in X, not Y", "but not");
//     "no" -> "a"/"an" before a singular word ("has no effect" -> "has an effect"), removed before
//       a plural or a mass noun ("no side effects" -> "side effects");
//     "never" is removed; "without" -> "with"; "lack of" -> "presence of", "lacks"/"lack"/
//       "lacked"/"lacking" -> "has"/"have"/"had"/"having"; "fails/fail/failed to V" -> V inflected;
//       "unable" -> "able".
//     A cue written in capitals ("NO", nitric oxide) is not a cue. "nothing", "none", "neither",
//     "nor", "nobody" have no removal rule: such a claim is reported as not negatable.
//  2. Swap one direction word for its opposite (direction_words.hpp): the first one from the
//     main verb on (the word rule 3 would negate), else the first one anywhere; "a"/"an" before
//     it follows the new word: increase(s/d) <-> decrease(s/d),
//     reduce(s) -> increase(s), higher <-> lower, more <-> less, greater/larger -> smaller,
//     up-regulates <-> down-regulates, upregulates <-> downregulates, promotes <-> inhibits,
//     activates/stimulates/encourages -> inhibits, suppresses -> promotes, enhances -> reduces,
//     diminishes -> enhances, improves <-> worsens, impairs -> improves, induces <-> prevents,
//     accelerates <-> slows, elevated -> reduced, positive(ly) <-> negative(ly), gain <-> loss,
//     presence <-> absence, longer <-> shorter, better <-> worse, ...
//     Swaps come before insertion because that order matches more SciFact negated siblings
//     (measured in tests/unit/test_negation_scifact.cpp).
//  3. Insert a negation at the first verb after the first word (a verb right after "that",
//     "which", "who" belongs to a relative clause and is skipped): after an auxiliary ("is" ->
//     "is not", "can" -> "cannot", "has shown" -> "has not shown", "there is a" -> "there is
//     no"), or before a main verb of a closed verb list, de-inflected ("causes" -> "does not
//     cause", "cause" -> "do not cause", "has" + noun -> "does not have", "required the" ->
//     "did not require the"). A lower-case word after an article or preposition is never a verb.
// A rewrite is a contrary claim, not always the logical complement: "X increases Y" becomes
// "X decreases Y", so a CONTRADICT claim whose evidence reports "no effect" stays CONTRADICT
// when negated by a swap; label flips for augmentation are safe for SUPPORT claims and for
// claims negated by rules 1 and 3.
// Case is kept (a capital on a replaced or removed first word moves to its replacement or to
// the next word), and every byte outside the rewritten words is copied unchanged.

#include <string>
#include <string_view>

namespace claimrag::text {

/// Which rule rewrote the claim; `none` when no rule applies.
enum class NegationRule {
  none,
  remove_do_not,      ///< "does/do/did not V", "doesn't V" -> V inflected
  remove_not,         ///< "not", "n't" contractions, "cannot"
  remove_no,          ///< "no" -> "a"/"an" or nothing
  remove_never,       ///< "never" removed
  remove_without,     ///< "without" -> "with"
  remove_lack,        ///< "lack of" -> "presence of", "lacks" -> "has"
  remove_fail_to,     ///< "fails to V" -> "Vs", "unable" -> "able"
  swap_direction,     ///< a direction word replaced by its opposite
  insert_after_auxiliary,  ///< "is" -> "is not", "can" -> "cannot"
  insert_before_verb,      ///< "causes" -> "does not cause"
};

/// A stable lower-case name for a rule ("remove_do_not", "swap_direction", ..., "none").
std::string_view negation_rule_name(NegationRule rule);

/// The outcome of negate_claim.
struct NegationResult {
  std::string text;                       ///< the negated claim; equals the input when !applied
  NegationRule rule = NegationRule::none;  ///< the rule that fired
  bool applied = false;                   ///< false: no rule matched, `text` is NOT a negation
};

/// Options that exist to measure the rule order; the defaults are the documented behaviour.
struct NegationOptions {
  bool swap_before_insert = true;  ///< rule 2 before rule 3 (false: insertion first)
};

/// The claim with its meaning negated by the first matching rule above. Deterministic and
/// pure; never throws on any input (empty or non-ASCII text simply matches no rule).
NegationResult negate_claim(std::string_view claim, const NegationOptions& options = {});

}  // namespace claimrag::text
