#pragma once
// The candidate sentences of retrieved abstracts, and the paper's pseudo-gold targets.

#include <cstddef>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/text/sentence_splitter.hpp"
#include "claimrag/tfidf/vectorizer.hpp"

namespace claimrag::evidence {

/// One sentence of one abstract: `index` counts the kept sentences of split_sentences(text).
struct SentenceRef {
  std::string doc_id;
  std::size_t index = 0;
  std::string text;
  std::size_t begin = 0;  ///< byte span in the document's `text`
  std::size_t end = 0;
  bool operator==(const SentenceRef& other) const { return doc_id == other.doc_id && index == other.index; }
};

/// The sentences of every document's `text` (not its title), split once.
class CorpusSentences {
 public:
  CorpusSentences(const dataset::Corpus& corpus, std::size_t minimum_characters);
  /// The sentences of the document at corpus position `document`.
  [[nodiscard]] const std::vector<text::Sentence>& of(std::size_t document) const { return sentences_[document]; }
  [[nodiscard]] SentenceRef ref(std::size_t document, std::size_t index) const;
  [[nodiscard]] const dataset::Corpus& corpus() const { return corpus_; }

 private:
  const dataset::Corpus& corpus_;
  std::vector<std::vector<text::Sentence>> sentences_;
};

struct CandidateOptions {
  std::size_t documents = 10;              ///< top documents of the run
  std::size_t sentences_per_document = 3;  ///< by Jaccard overlap with the claim
};

struct Candidate {
  SentenceRef sentence;
  std::size_t document_rank = 0;  ///< 1-based rank of its document in the run
  double overlap = 0;             ///< Jaccard overlap of token sets with the claim
};

/// For a claim and its ranking, the top sentences by Jaccard overlap in each top document, in
/// document-rank order, then overlap order; equal overlaps keep sentence order. A document
/// without sentences (an empty abstract, or only short fragments) contributes none. Every ranked
/// document must be in the corpus (DataError naming `run_source` otherwise).
std::vector<Candidate> select_candidates(const std::string& claim, const run::Ranking& ranking,
                                         const CorpusSentences& sentences, const CandidateOptions& options,
                                         const std::string& run_source);

/// The paper's pseudo-gold: for each relevant document of a claim (qrels order), the sentence
/// with the highest TF-IDF cosine to the claim (the earlier sentence on ties). A relevant document
/// without sentences, or absent from the corpus (BEIR qrels have such lines), contributes none.
std::vector<SentenceRef> pseudo_gold(const std::string& claim, const std::vector<std::string>& relevant_doc_ids,
                                     const CorpusSentences& sentences, const tfidf::TfidfVectorizer& vectorizer);

}  // namespace claimrag::evidence
