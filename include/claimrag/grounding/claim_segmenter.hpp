#pragma once
// Deterministic segmentation of a generated answer into sentence-level claims, each with its byte
// span in the answer. Separate from text/sentence_splitter.hpp (the retrieval paper's splitter,
// which drops short fragments and splits after "e.g."): here nothing is dropped and common
// abbreviations do not end a claim.
//
// The rule, applied left to right over the bytes (ASCII decisions only, so UTF-8 passes through):
//  1. A claim ends after a run of terminators ('.', '!', '?', e.g. "?!" or "...") that is followed,
//     after any closing quotes or brackets (" ' ) ] }), by ASCII whitespace or the end of the text.
//     A terminator followed by anything else does not end a claim: decimals "0.5", "p<.05",
//     "e.g." inside its own letters, URLs and versions stay whole.
//  2. Except when the run is a single '.' and
//     a. the word before it (the letters and internal periods up to the preceding whitespace or
//        opening bracket) is an abbreviation of abbreviation_list(), compared without case:
//        "e.g.", "i.e.", "et al.", "Fig.", "vs.", "approx.", ...; or
//     b. the next non-whitespace byte is a lowercase ASCII letter, a digit or one of , ; : %
//        ("p < 0.05. then" is not split; "Fig. 2" stays whole through a. and this rule).
//  3. A blank line (a newline, optional spaces or tabs, a newline) also ends a claim: answers
//     written as paragraphs or lists without final periods still split per paragraph.
//  4. Each claim is trimmed of surrounding ASCII whitespace; its span is [begin, end) of the
//     trimmed text. Text holding only whitespace gives no claim.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::grounding {

/// One claim: its text (the answer's bytes [begin, end)).
struct ClaimSpan {
  std::string text;
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// The abbreviations of rule 2a, lowercase, without their final period ("e.g", "et al", "fig").
std::span<const std::string_view> abbreviation_list();

/// The claims of `answer`, in order, by the rule above.
std::vector<ClaimSpan> segment_claims(std::string_view answer);

/// The claims kept (keep[i] for claim i) joined as in `answer`: each kept claim but the last is
/// followed by the whitespace that followed it in the answer (one space when it was the answer's
/// last claim). Empty when nothing is kept. keep.size() must equal claims.size().
std::string join_claims(std::string_view answer, std::span<const ClaimSpan> claims, const std::vector<bool>& keep);

}  // namespace claimrag::grounding
