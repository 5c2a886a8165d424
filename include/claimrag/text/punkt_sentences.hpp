#pragma once
// The sentences of a line of text as NLTK's Punkt sentence tokenizer finds them
// (`nltk.sent_tokenize`), which the grounding checkers' reference code splits documents with
// before chunking them (verification/checker_chunks.hpp).
//
// Punkt's algorithm, followed step by step: a candidate break is a word ending in '.', '?' or '!'
// followed by whitespace and another word, or by one of )";}]*:@'({[!?; the words around it
// decide; a sentence ends just after its punctuation and the next starts at the next word; closing
// quotes and brackets after a break are moved back to the sentence they close; empty sentences
// are dropped.
//
// What Punkt learned from its English training text is not available here, so its decisions
// that rest on it are replaced by fixed rules. The known differences from `sent_tokenize`:
//  - abbreviations: a fixed list (kPunktAbbreviations: titles, months, Latin and scientific
//    abbreviations such as e.g., i.e., et al., Fig., vs., approx.) instead of Punkt's learned
//    list; a word of the list before a period never ends a sentence, where Punkt sometimes ends
//    it when the next word is a frequent sentence starter ("... etc. The ...");
//  - collocations (Punkt's learned pairs such as "Jan. 5" kept together) are not known;
//  - an initial (one letter and a period, "J. Smith") never ends a sentence, and a number with a
//    period ("in 1990.") ends one unless a lowercase word follows, where Punkt also consults how
//    often the next word was seen capitalised.
// Everything else (the candidate pattern, word splitting, ellipses, the realignment of closing
// punctuation) is Punkt's.

#include <string_view>
#include <vector>

#include "claimrag/text/sentence_splitter.hpp"

namespace claimrag::text {

/// The fixed abbreviations, lowercase and without their final period (internal periods kept: "e.g").
extern const std::vector<std::string_view> kPunktAbbreviations;

/// The sentences of `line` (meant for text without line breaks: the checkers split lines first),
/// in order, each with its byte span in `line`; none for a blank line.
std::vector<Sentence> punkt_sentences(std::string_view line);

}  // namespace claimrag::text
