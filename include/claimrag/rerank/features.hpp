#pragma once
// The reranker's five interaction features of a (claim, abstract) pair, used raw (no scaling),
// in this column order:
//   bm25          Okapi BM25 score of the abstract for the claim (bm25/search.hpp, the model's
//                 k1 and b), whether or not BM25 retrieved it
//   tfidf_cosine  cosine of the TF-IDF vectors (tfidf/vectorizer.hpp) of the claim and of the
//                 abstract's title + " " + text, the vectorizer fitted on the whole corpus;
//                 equal to tfidf::cosine bit for bit (the norms are computed once, not per pair)
//   jaccard       |Q ∩ D| / |Q ∪ D| over the distinct tokens (text/tokenizer.hpp) of the claim
//                 and of title + " " + text; 0 when both are empty
//   doc_length    tokens of title + " " + text (repeats counted)
//   query_length  tokens of the claim (repeats counted)

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/dataset/beir.hpp"
#include "claimrag/tfidf/sparse_vector.hpp"
#include "claimrag/tfidf/vectorizer.hpp"

namespace claimrag::rerank {

inline constexpr std::size_t kFeatureCount = 5;

/// The feature names in column order.
inline const std::array<std::string, kFeatureCount>& feature_names() {
  static const std::array<std::string, kFeatureCount> names = {"bm25", "tfidf_cosine", "jaccard",
                                                               "doc_length", "query_length"};
  return names;
}

/// One row of features, in feature_names() order.
using FeatureRow = std::array<double, kFeatureCount>;

/// Everything that decides the value of a feature: a model trained under one definition may only
/// be applied under an equal one.
struct FeatureDefinition {
  std::vector<std::string> names;      ///< feature_names(), as a list
  std::string corpus_checksum;         ///< io::checksum_hex of corpus.jsonl
  std::string tfidf_fingerprint;       ///< TfidfVectorizer::fingerprint()
  std::size_t tfidf_max_features = 0;  ///< TfidfOptions::max_features it was fitted with
  bm25::Bm25Parameters bm25;
};

/// A claim's side of the features, computed once per claim.
struct PreparedQuery {
  std::string text;
  std::vector<std::uint32_t> known_terms;  ///< distinct tokens found in the corpus, as index term ids, sorted
  std::size_t unknown_terms = 0;           ///< distinct tokens found in no document
  tfidf::SparseVector tfidf;               ///< L2-normalised
  double tfidf_norm = 0;                   ///< tfidf::l2_norm(tfidf): 1 up to rounding, or 0 when empty
  double length = 0;                       ///< tokens, repeats counted
};

/// The Jaccard index of two sets given their sizes and the size of their intersection;
/// 0 when both are empty.
double jaccard(std::size_t size_a, std::size_t size_b, std::size_t intersection);

class ClaimTables;

/// Computes features against one corpus and its BM25 index. Thread-safe after construction.
class FeatureExtractor {
 public:
  /// Fits the TF-IDF vectorizer on every document's title + " " + text and precomputes each
  /// document's vector and token set. `index` must have been built from `corpus` (same documents
  /// in the same order; DataError otherwise) and must outlive the extractor; `corpus` need not.
  FeatureExtractor(const dataset::Corpus& corpus, const bm25::InvertedIndex& index,
                   bm25::Bm25Parameters bm25, const tfidf::TfidfOptions& tfidf);

  [[nodiscard]] PreparedQuery prepare(std::string_view query) const;

  /// The features of `document` (a corpus position < document_count()) for `query`.
  [[nodiscard]] FeatureRow features(const PreparedQuery& query, std::uint32_t document) const;
  /// The same with the BM25 score already known (as search() returns it; equal to score()).
  [[nodiscard]] FeatureRow features(const PreparedQuery& query, std::uint32_t document, double bm25_score) const;

  /// The corpus position of document `doc_id`, or -1 when the corpus has no such document.
  [[nodiscard]] std::int64_t find_document(std::string_view doc_id) const;

  [[nodiscard]] const FeatureDefinition& definition() const { return definition_; }
  [[nodiscard]] const bm25::Searcher& searcher() const { return searcher_; }
  [[nodiscard]] const bm25::InvertedIndex& index() const { return index_; }
  [[nodiscard]] const tfidf::TfidfVectorizer& vectorizer() const { return vectorizer_; }
  [[nodiscard]] std::size_t document_count() const { return index_.document_count(); }

 private:
  friend class ClaimTables;
  const bm25::InvertedIndex& index_;
  bm25::Searcher searcher_;
  tfidf::TfidfVectorizer vectorizer_;
  std::vector<tfidf::SparseVector> document_tfidf_;
  std::vector<double> document_tfidf_norm_;
  std::unordered_map<std::string_view, std::uint32_t> document_position_;  ///< views into index_.doc_ids
  /// Distinct term ids of document d: document_terms_[document_term_offsets_[d] .. [d+1]), sorted.
  std::vector<std::uint64_t> document_term_offsets_;
  std::vector<std::uint32_t> document_terms_;
  FeatureDefinition definition_;
};

/// FeatureExtractor::features for many documents of one claim, through dense tables indexed by
/// TF-IDF feature and by index term that are filled for the claim and reused from claim to claim
/// (so nothing is allocated per claim). The results are bit-identical to the extractor's: the
/// same products are added in the same order. Not thread-safe: one per thread.
class ClaimTables {
 public:
  /// Keeps a reference to `extractor`, which must outlive the tables.
  explicit ClaimTables(const FeatureExtractor& extractor);
  /// Fills the tables for `query` (copied: it need not outlive the tables).
  void load(const PreparedQuery& query);
  /// The features of `document` for the loaded claim, with its BM25 score already known.
  [[nodiscard]] FeatureRow features(std::uint32_t document, double bm25_score) const;

 private:
  const FeatureExtractor& extractor_;
  bool loaded_ = false;
  std::vector<double> tfidf_;        ///< by TF-IDF feature: the claim's value, else 0
  std::vector<std::uint8_t> terms_;  ///< by index term: 1 when the claim has it
  std::vector<std::uint32_t> tfidf_set_;  ///< the entries of tfidf_ to clear on the next load
  std::vector<std::uint32_t> terms_set_;  ///< the entries of terms_ to clear on the next load
  double tfidf_norm_ = 0;
  std::size_t set_size_ = 0;  ///< distinct tokens of the claim, known or not
  double length_ = 0;
};

}  // namespace claimrag::rerank
