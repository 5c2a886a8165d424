#include "claimrag/rerank/features.hpp"

#include <algorithm>

#include "claimrag/error.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::rerank {
namespace {

const dataset::Corpus& checked(const dataset::Corpus& corpus, const bm25::InvertedIndex& index) {
  bool same = corpus.documents.size() == index.document_count();
  for (std::size_t d = 0; same && d < corpus.documents.size(); ++d) same = corpus.documents[d].id == index.doc_ids()[d];
  if (!same) {
    throw DataError("the BM25 index was not built from this corpus (" + std::to_string(index.document_count()) +
                    " indexed documents, " + std::to_string(corpus.documents.size()) +
                    " in the corpus, or another order): run claimrag index again");
  }
  return corpus;
}

std::size_t intersection_size(const std::vector<std::uint32_t>& a, const std::uint32_t* b, const std::uint32_t* b_end) {
  std::size_t common = 0;
  auto i = a.begin();
  while (i != a.end() && b != b_end) {
    if (*i < *b) {
      ++i;
    } else if (*b < *i) {
      ++b;
    } else {
      ++common;
      ++i;
      ++b;
    }
  }
  return common;
}

}  // namespace

double jaccard(std::size_t size_a, std::size_t size_b, std::size_t intersection) {
  const std::size_t union_size = size_a + size_b - intersection;
  return union_size == 0 ? 0.0 : static_cast<double>(intersection) / static_cast<double>(union_size);
}

FeatureExtractor::FeatureExtractor(const dataset::Corpus& corpus, const bm25::InvertedIndex& index,
                                   bm25::Bm25Parameters bm25, const tfidf::TfidfOptions& tfidf)
    : index_(index),
      searcher_(index, bm25),
      vectorizer_(tfidf::TfidfVectorizer::fit(checked(corpus, index).full_texts(), tfidf)) {
  const auto texts = corpus.full_texts();
  document_tfidf_.resize(texts.size());
  document_tfidf_norm_.resize(texts.size());
  const long count = static_cast<long>(texts.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (long d = 0; d < count; ++d) {
    const auto i = static_cast<std::size_t>(d);
    document_tfidf_[i] = vectorizer_.transform(texts[i]);
    document_tfidf_norm_[i] = tfidf::l2_norm(document_tfidf_[i]);
  }
  document_position_.reserve(index.document_count());
  for (std::uint32_t d = 0; d < index.document_count(); ++d) document_position_.emplace(index.doc_ids()[d], d);

  // Invert the postings: walking terms in increasing id order leaves each document's list sorted.
  // Reading every term's postings here also checks them all before any parallel feature work.
  document_term_offsets_.assign(index.document_count() + 1, 0);
  for (std::uint32_t term = 0; term < index.term_count(); ++term) {
    for (const std::uint32_t document : index.postings(term).documents) ++document_term_offsets_[document + 1];
  }
  for (std::size_t d = 0; d < index.document_count(); ++d) document_term_offsets_[d + 1] += document_term_offsets_[d];
  document_terms_.resize(index.posting_count());
  std::vector<std::uint64_t> cursor(document_term_offsets_.begin(), document_term_offsets_.end() - 1);
  for (std::uint32_t term = 0; term < index.term_count(); ++term) {
    for (const std::uint32_t document : index.postings(term).documents) document_terms_[cursor[document]++] = term;
  }

  definition_.names.assign(feature_names().begin(), feature_names().end());
  definition_.corpus_checksum = corpus.checksum;
  definition_.tfidf_fingerprint = vectorizer_.fingerprint();
  definition_.tfidf_max_features = tfidf.max_features;
  definition_.bm25 = bm25;
}

PreparedQuery FeatureExtractor::prepare(std::string_view query) const {
  PreparedQuery prepared;
  prepared.text = std::string(query);
  std::vector<std::string> unknown;
  std::size_t length = 0;
  text::for_each_token(query, [&](std::string_view token) {
    ++length;
    const std::int64_t id = index_.term_id(token);
    if (id >= 0) {
      prepared.known_terms.push_back(static_cast<std::uint32_t>(id));
    } else {
      unknown.emplace_back(token);
    }
  });
  std::sort(prepared.known_terms.begin(), prepared.known_terms.end());
  prepared.known_terms.erase(std::unique(prepared.known_terms.begin(), prepared.known_terms.end()),
                             prepared.known_terms.end());
  std::sort(unknown.begin(), unknown.end());
  prepared.unknown_terms = static_cast<std::size_t>(std::unique(unknown.begin(), unknown.end()) - unknown.begin());
  prepared.tfidf = vectorizer_.transform(query);
  prepared.tfidf_norm = tfidf::l2_norm(prepared.tfidf);
  prepared.length = static_cast<double>(length);
  return prepared;
}

std::int64_t FeatureExtractor::find_document(std::string_view doc_id) const {
  const auto found = document_position_.find(doc_id);
  if (found == document_position_.end()) return -1;
  return found->second;
}

FeatureRow FeatureExtractor::features(const PreparedQuery& query, std::uint32_t document) const {
  return features(query, document, searcher_.score(query.text, document));
}

FeatureRow FeatureExtractor::features(const PreparedQuery& query, std::uint32_t document, double bm25_score) const {
  if (document >= index_.document_count()) {
    throw InternalError("feature extractor: document " + std::to_string(document) + " is outside the corpus");
  }
  const std::uint32_t* begin = document_terms_.data() + document_term_offsets_[document];
  const std::uint32_t* end = document_terms_.data() + document_term_offsets_[document + 1];
  const std::size_t common = intersection_size(query.known_terms, begin, end);
  const std::size_t query_set = query.known_terms.size() + query.unknown_terms;
  // tfidf::cosine's expression with both norms precomputed.
  const double norms = query.tfidf_norm * document_tfidf_norm_[document];
  const double cosine = norms == 0.0 ? 0.0 : tfidf::dot(query.tfidf, document_tfidf_[document]) / norms;
  return {bm25_score,
          cosine,
          jaccard(query_set, static_cast<std::size_t>(end - begin), common),
          static_cast<double>(index_.doc_lengths()[document]),
          query.length};
}

ClaimTables::ClaimTables(const FeatureExtractor& extractor)
    : extractor_(extractor), tfidf_(extractor.vectorizer().size(), 0.0), terms_(extractor.index().term_count(), 0) {}

void ClaimTables::load(const PreparedQuery& query) {
  for (const std::uint32_t index : tfidf_set_) tfidf_[index] = 0.0;
  for (const std::uint32_t term : terms_set_) terms_[term] = 0;
  tfidf_set_.clear();
  for (const auto& entry : query.tfidf) {
    tfidf_[entry.index] = entry.value;
    tfidf_set_.push_back(entry.index);
  }
  terms_set_ = query.known_terms;
  for (const std::uint32_t term : terms_set_) terms_[term] = 1;
  tfidf_norm_ = query.tfidf_norm;
  set_size_ = query.known_terms.size() + query.unknown_terms;
  length_ = query.length;
  loaded_ = true;
}

FeatureRow ClaimTables::features(std::uint32_t document, double bm25_score) const {
  const FeatureExtractor& x = extractor_;
  if (!loaded_ || document >= x.index_.document_count()) {
    throw InternalError("claim tables: no claim loaded or document " + std::to_string(document) + " outside the corpus");
  }
  // Terms the claim lacks add +0.0, which leaves a sum of non-negative products unchanged, so
  // this is tfidf::dot's sum exactly.
  double dot = 0.0;
  for (const auto& entry : x.document_tfidf_[document]) dot += tfidf_[entry.index] * entry.value;
  std::size_t common = 0;
  const std::uint64_t begin = x.document_term_offsets_[document];
  const std::uint64_t end = x.document_term_offsets_[document + 1];
  for (std::uint64_t i = begin; i < end; ++i) common += terms_[x.document_terms_[i]];
  const double norms = tfidf_norm_ * x.document_tfidf_norm_[document];
  return {bm25_score,
          norms == 0.0 ? 0.0 : dot / norms,
          jaccard(set_size_, static_cast<std::size_t>(end - begin), common),
          static_cast<double>(x.index_.doc_lengths()[document]),
          length_};
}

}  // namespace claimrag::rerank
