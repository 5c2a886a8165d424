#include "claimrag/evidence/sentences.hpp"

#include <algorithm>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/text/token_set.hpp"

namespace claimrag::evidence {

CorpusSentences::CorpusSentences(const dataset::Corpus& corpus, std::size_t minimum_characters)
    : corpus_(corpus), sentences_(corpus.documents.size()) {
  // Each document is split on its own, so the threads may take them in any order.
  parallel_for(corpus.documents.size(), [&](std::size_t d) {
    sentences_[d] = text::split_sentences(corpus.documents[d].text, minimum_characters);
  });
}

SentenceRef CorpusSentences::ref(std::size_t document, std::size_t index) const {
  const auto& sentence = sentences_[document][index];
  return {corpus_.documents[document].id, index, sentence.text, sentence.begin, sentence.end};
}

std::vector<Candidate> select_candidates(const std::string& claim, const run::Ranking& ranking,
                                         const CorpusSentences& sentences, const CandidateOptions& options,
                                         const std::string& run_source) {
  const text::TokenSet claim_tokens = text::token_set(claim);
  std::vector<Candidate> candidates;
  // Overlaps first, with buffers reused across sentences; only the kept sentences are copied out.
  text::TokenViews sentence_tokens;
  std::vector<double> overlaps;
  std::vector<std::size_t> order;
  const std::size_t documents = std::min(options.documents, ranking.documents.size());
  for (std::size_t rank = 0; rank < documents; ++rank) {
    const auto& doc_id = ranking.documents[rank].doc_id;
    const std::int64_t position = sentences.corpus().find(doc_id);
    if (position < 0) {
      throw DataError(run_source, "query " + ranking.query_id + " ranks document " + doc_id + ", absent from the corpus");
    }
    const auto& document_sentences = sentences.of(static_cast<std::size_t>(position));
    overlaps.clear();
    for (const auto& sentence : document_sentences) {
      overlaps.push_back(text::jaccard_with_views(claim_tokens, sentence_tokens.of(sentence.text)));
    }
    order.resize(overlaps.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return overlaps[a] > overlaps[b]; });
    order.resize(std::min(order.size(), options.sentences_per_document));
    for (const std::size_t i : order) {
      candidates.push_back({sentences.ref(static_cast<std::size_t>(position), i), rank + 1, overlaps[i]});
    }
  }
  return candidates;
}

std::vector<SentenceRef> pseudo_gold(const std::string& claim, const std::vector<std::string>& relevant_doc_ids,
                                     const CorpusSentences& sentences, const tfidf::TfidfVectorizer& vectorizer) {
  const auto claim_vector = vectorizer.transform(claim);
  std::vector<SentenceRef> gold;
  for (const auto& doc_id : relevant_doc_ids) {
    const std::int64_t position = sentences.corpus().find(doc_id);
    if (position < 0) continue;  // the qrels name a document the corpus lacks: warned about where the split loads
    const auto& document_sentences = sentences.of(static_cast<std::size_t>(position));
    double best = -1;
    std::size_t best_index = 0;
    for (std::size_t i = 0; i < document_sentences.size(); ++i) {
      const double cosine = tfidf::cosine(claim_vector, vectorizer.transform(document_sentences[i].text));
      if (cosine > best) {
        best = cosine;
        best_index = i;
      }
    }
    if (!document_sentences.empty()) gold.push_back(sentences.ref(static_cast<std::size_t>(position), best_index));
  }
  return gold;
}

}  // namespace claimrag::evidence
