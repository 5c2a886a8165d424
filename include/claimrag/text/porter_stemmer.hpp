#pragma once
// Porter's stemmer (Porter 1980), whole or only its step 1 (1a, 1b, 1c: plural -s/-es/-ies, past
// -ed, gerund -ing, final -y). Claims paraphrase their abstracts by inflection and derivation
// ("reduces" / "reduced" / "reduction"), which exact-token BM25 misses. Step 1 alone leaves
// "increase" and "increas" (from "increased") apart, which step 5 unites; on SciFact's train
// claims the whole stemmer retrieves better (docs/retrieval.md, "Lexical ranker").
#include <string>
#include <string_view>

namespace claimrag::text {

/// The stem of one lower-case token ([a-z0-9]+, as tokenize() gives). Tokens holding a digit and
/// tokens of one or two letters are returned unchanged, as in Porter's reference implementation.
std::string stem_inflection(std::string_view token);

/// All of Porter's stemmer (steps 1 to 5): inflections and derivational suffixes
/// ("activation" → "activ"); same exceptions as stem_inflection.
std::string stem_porter(std::string_view token);

enum class Stemmer { none, inflection, porter };

/// tokenize(text) with every token stemmed, joined by single spaces (with Stemmer::none, the
/// tokens as they are).
std::string stem_text(std::string_view text, Stemmer stemmer = Stemmer::inflection);

}  // namespace claimrag::text
