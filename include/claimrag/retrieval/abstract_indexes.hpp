#pragma once
// The views of a corpus that claim-aware retrieval scores against, built once. Every view but the
// two `exact` ones is over stemmed tokens (text/porter_stemmer.hpp; sentences are split before
// stemming, which drops punctuation): query them with text::stem_text(claim, stemmer).
//   whole      BM25 index of title + " " + text (bm25::build_index, as the paper's BM25)
//   titles     BM25 index of the titles alone (a title field, as BM25F's)
//   sentences  BM25 index whose "documents" are the abstracts' sentences (text::split_sentences of
//              `text`), with their own lengths and document frequencies: a SciFact abstract is cited
//              for one or two rationale sentences, so the best-matching sentence is a signal that the
//              whole abstract's length dilutes
//   forward    per abstract, its (term of `whole`, frequency) pairs, for pseudo-relevance feedback
//   bigrams    per abstract, the sorted distinct pairs of adjacent tokens (as `whole` term ids)
//   exact, exact_sentences   `whole` and `sentences` over the tokens as written (the paper's BM25
//              index is `exact`), so that an exact match can count beside a stemmed one
//   grams      BM25 index of the character n-grams of title + " " + text as written
//              (text/character_grams.hpp): misspelt, hyphenated and differently written forms of a
//              word still share terms; query it with text::character_grams(claim, gram_size)
#include <cstdint>
#include <vector>

#include "claimrag/bm25/index.hpp"
#include "claimrag/dataset/beir.hpp"
#include "claimrag/text/porter_stemmer.hpp"

namespace claimrag::retrieval {

/// Two adjacent term ids packed as (first << 32) | second.
inline std::uint64_t pack_bigram(std::uint32_t first, std::uint32_t second) {
  return (static_cast<std::uint64_t>(first) << 32) | second;
}

struct AbstractIndexes {
  bm25::InvertedIndex whole;
  bm25::InvertedIndex titles;
  bm25::InvertedIndex sentences;
  bm25::InvertedIndex exact;
  bm25::InvertedIndex exact_sentences;  ///< the same sentences as `sentences`, in the same order
  bm25::InvertedIndex grams;
  std::size_t gram_size = 3;  ///< n of the grams view
  text::Stemmer stemmer = text::Stemmer::porter;  ///< what every view but exact, exact_sentences and grams was built with
  /// Abstract d's sentences are sentences' documents [sentence_offsets[d], sentence_offsets[d+1]).
  std::vector<std::uint32_t> sentence_offsets;
  /// Abstract d's (term, frequency) pairs: [forward_offsets[d], forward_offsets[d+1]) of
  /// forward_terms / forward_frequencies, terms increasing.
  std::vector<std::uint64_t> forward_offsets;
  std::vector<std::uint32_t> forward_terms;
  std::vector<std::uint32_t> forward_frequencies;
  /// Abstract d's bigrams: [bigram_offsets[d], bigram_offsets[d+1]) of bigrams, increasing.
  std::vector<std::uint64_t> bigram_offsets;
  std::vector<std::uint64_t> bigrams;

  [[nodiscard]] std::size_t document_count() const { return whole.document_count(); }
  /// True when abstract `document` contains the bigram.
  [[nodiscard]] bool has_bigram(std::uint32_t document, std::uint64_t bigram) const;
};

/// Builds every view of `corpus`. Sentences shorter than `minimum_sentence_characters` are dropped
/// (text::split_sentences); an abstract left without sentences has none in `sentences`.
/// UsageError when gram_size is 0.
AbstractIndexes build_abstract_indexes(const dataset::Corpus& corpus, text::Stemmer stemmer = text::Stemmer::porter,
                                       std::size_t minimum_sentence_characters = 1, std::size_t gram_size = 3);

}  // namespace claimrag::retrieval
