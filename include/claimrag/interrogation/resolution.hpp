#pragma once
// Response resolution: a free-text answer to a probe -> Support / Refute / Neutral.
//
// The answer is resolved as an answer to the probe's own question, as the seed's parser does:
// SUPPORT means "yes, the proposition asked holds", REFUTE "no, it does not". The fusion then
// inverts the answers to conflict probes (stance_on_claim). The resolver is aware of the question's
// polarity: to "is the claim false?", the text "the claim is not false" answers *no* (REFUTE), which
// the inversion turns into SUPPORT of the claim; a leading "Yes," before it does not override it.
//
// The text is first normalised: lower case, curly quotes made straight, the probe's claim and every
// double-quoted span removed (the claim's own words — "not", "increases", "no" — must not be read as
// the answer). Rules, in order; the first that matches decides:
//  1. Unresolvable: nothing left, or markup (an HTML page, "<...>" tags) -> NEUTRAL, unresolved.
//  2. Hedges: "not sure", "unsure", "uncertain", "unclear", "cannot be determined", "not enough
//     information", "insufficient evidence", "inconclusive", "does not provide", "neither true nor
//     false", "I don't know", "neutral", ... -> NEUTRAL.
//  3. Completion probes only: the first word, or the word after "relatively" / "quite" / "very" /
//     "fairly": high, likely, strong, probable, certain -> SUPPORT; low, unlikely, weak, improbable,
//     small, slim -> REFUTE; moderate, medium -> NEUTRAL.
//  4. A statement on the claim's truth: a copula (is, are, was, be, seems, appears, remains, isn't,
//     ...) followed within three words by a verdict word — true, correct, accurate, valid, right,
//     supported, confirmed (positive) or false, incorrect, inaccurate, invalid, wrong, untrue,
//     refuted, contradicted, disproven (negative) — with only "not", "necessarily", "entirely",
//     "completely", "fully", "strictly", "actually", "indeed", "therefore", "thus", "still", "also"
//     between them; or a verb supports / confirms / refutes / contradicts / disproves, negated by a
//     "not", "doesn't", "does not", "didn't", "don't" just before it. Each "not" (or n't) flips the
//     verdict word, so "is not necessarily false" affirms the claim. The first such statement
//     decides: the claim affirmed answers an "is C true?" probe with SUPPORT and an "is C false?"
//     probe with REFUTE; the claim denied, the reverse.
//  5. A direct answer: the first word yes / yeah / yep / correct / true / indeed / absolutely /
//     certainly / definitely -> SUPPORT; no / nope / incorrect / false -> REFUTE.
//  6. A yes or no standing alone between punctuation anywhere ("Based on the abstract, yes."), or
//     after "the answer is" -> SUPPORT / REFUTE ("no significant difference" is no answer).
//  7. Anything else -> NEUTRAL, unresolved.
// Unresolved answers count as NEUTRAL in the fusion and are counted separately in the output.

#include <string>
#include <string_view>

#include "claimrag/interrogation/answer.hpp"
#include "claimrag/interrogation/probe.hpp"

namespace claimrag::interrogation {

struct Resolution {
  Answer answer = Answer::neutral;  ///< the answer to the probe's own question
  bool resolved = false;            ///< false when no rule but 1 or 7 applied
  int rule = 7;                     ///< the number of the rule that decided (see above)
};

/// Resolves `text`, a response to `probe` whose `{claim}` slot held `probe_claim`.
Resolution resolve_response(const Probe& probe, std::string_view text, std::string_view probe_claim);

/// The answer read as a stance on the original claim C: conflict probes' answers inverted.
Answer stance_on_claim(const Probe& probe, Answer answer);

}  // namespace claimrag::interrogation
