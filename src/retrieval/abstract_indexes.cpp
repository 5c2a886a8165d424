#include "claimrag/retrieval/abstract_indexes.hpp"

#include <algorithm>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/text/character_grams.hpp"

#include "claimrag/text/porter_stemmer.hpp"
#include "claimrag/text/sentence_splitter.hpp"
#include "claimrag/text/term_dictionary.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::retrieval {
namespace {

dataset::Corpus titles_of(const dataset::Corpus& corpus) {
  dataset::Corpus titles;
  titles.documents.reserve(corpus.documents.size());
  for (const auto& document : corpus.documents) titles.documents.push_back({document.id, document.title, ""});
  return titles;
}

/// text::stem_text with each distinct token stemmed once: a corpus repeats its ~36,000 words
/// about 1.2 million times. Tokens are interned by the index builder's allocation-free
/// dictionary; stems_[id] is the stem of token id.
class CachedStemmer {
 public:
  explicit CachedStemmer(text::Stemmer stemmer) : stemmer_(stemmer) {}
  std::string stem_text(std::string_view text) {
    std::string stemmed;
    text::for_each_token(text, [&](std::string_view token) {
      const std::uint32_t id = tokens_.intern(token);
      if (id == stems_.size()) stems_.push_back(text::stem_text(token, stemmer_));
      if (!stemmed.empty()) stemmed.push_back(' ');
      stemmed += stems_[id];
    });
    return stemmed;
  }

 private:
  text::Stemmer stemmer_;
  text::TermDictionary tokens_;
  std::vector<std::string> stems_;
};

dataset::Corpus stemmed_copy(const dataset::Corpus& corpus, CachedStemmer& stemmer) {
  dataset::Corpus stemmed;
  stemmed.documents.reserve(corpus.documents.size());
  for (const auto& document : corpus.documents) {
    stemmed.documents.push_back({document.id, stemmer.stem_text(document.title), stemmer.stem_text(document.text)});
  }
  return stemmed;
}

/// Sentence documents get the id "<abstract id>#<sentence number>": one word, as ids must be.
dataset::Corpus sentences_of(const dataset::Corpus& corpus, std::size_t minimum_characters,
                             std::vector<std::uint32_t>& offsets) {
  dataset::Corpus sentences;
  offsets.assign(1, 0);
  for (const auto& document : corpus.documents) {
    std::size_t number = 0;
    for (auto& sentence : text::split_sentences(document.text, minimum_characters)) {
      sentences.documents.push_back({document.id + "#" + std::to_string(number++), "", std::move(sentence.text)});
    }
    offsets.push_back(static_cast<std::uint32_t>(sentences.documents.size()));
  }
  return sentences;
}

void build_forward(AbstractIndexes& indexes) {
  const auto& whole = indexes.whole;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> per_document(whole.document_count());
  for (std::uint32_t t = 0; t < whole.term_count(); ++t) {
    const bm25::PostingList list = whole.postings(t);
    for (std::size_t i = 0; i < list.size(); ++i) per_document[list.documents[i]].emplace_back(t, list.frequencies[i]);
  }
  indexes.forward_offsets.assign(1, 0);
  for (const auto& pairs : per_document) {  // terms arrive in increasing order
    for (const auto& [term, frequency] : pairs) {
      indexes.forward_terms.push_back(term);
      indexes.forward_frequencies.push_back(frequency);
    }
    indexes.forward_offsets.push_back(indexes.forward_terms.size());
  }
}

void build_bigrams(const dataset::Corpus& corpus, AbstractIndexes& indexes) {
  indexes.bigram_offsets.assign(1, 0);
  std::vector<std::uint64_t> pairs;
  for (const auto& document : corpus.documents) {
    pairs.clear();
    std::int64_t previous = -1;
    auto visit = [&](std::string_view token) {
      const std::int64_t term = indexes.whole.term_id(token);  // every token of the corpus is indexed
      if (previous >= 0) pairs.push_back(pack_bigram(static_cast<std::uint32_t>(previous), static_cast<std::uint32_t>(term)));
      previous = term;
    };
    text::for_each_token(document.title, visit);
    text::for_each_token(document.text, visit);
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    indexes.bigrams.insert(indexes.bigrams.end(), pairs.begin(), pairs.end());
    indexes.bigram_offsets.push_back(indexes.bigrams.size());
  }
}

dataset::Corpus grams_of(const dataset::Corpus& corpus, std::size_t gram_size) {
  dataset::Corpus grams;
  grams.documents.reserve(corpus.documents.size());
  for (const auto& document : corpus.documents) {
    grams.documents.push_back(
        {document.id, text::character_grams(document.title, gram_size), text::character_grams(document.text, gram_size)});
  }
  return grams;
}

}  // namespace

bool AbstractIndexes::has_bigram(std::uint32_t document, std::uint64_t bigram) const {
  const auto begin = bigrams.begin() + static_cast<std::ptrdiff_t>(bigram_offsets[document]);
  const auto end = bigrams.begin() + static_cast<std::ptrdiff_t>(bigram_offsets[document + 1]);
  return std::binary_search(begin, end, bigram);
}

AbstractIndexes build_abstract_indexes(const dataset::Corpus& corpus, text::Stemmer stemmer,
                                       std::size_t minimum_sentence_characters, std::size_t gram_size) {
  if (gram_size == 0) throw UsageError("abstract indexes: gram_size must be at least 1");
  AbstractIndexes indexes;
  indexes.stemmer = stemmer;
  indexes.gram_size = gram_size;
  const auto sentences = sentences_of(corpus, minimum_sentence_characters, indexes.sentence_offsets);
  CachedStemmer cached(stemmer);
  const auto stemmed = stemmed_copy(corpus, cached);
  const auto stemmed_sentences = stemmed_copy(sentences, cached);
  // Six independent builds, spread over the threads; each writes its own member.
  parallel_for(6, [&](std::size_t view) {
    switch (view) {
      case 5: indexes.grams = bm25::build_index(grams_of(corpus, gram_size), corpus.checksum); break;
      case 0: indexes.exact = bm25::build_index(corpus, corpus.checksum); break;
      case 1: indexes.exact_sentences = bm25::build_index(sentences, corpus.checksum); break;
      case 2:
        indexes.whole = bm25::build_index(stemmed, corpus.checksum);
        build_forward(indexes);
        build_bigrams(stemmed, indexes);
        break;
      case 3: indexes.titles = bm25::build_index(titles_of(stemmed), corpus.checksum); break;
      default: indexes.sentences = bm25::build_index(stemmed_sentences, corpus.checksum); break;
    }
  });
  return indexes;
}

}  // namespace claimrag::retrieval
