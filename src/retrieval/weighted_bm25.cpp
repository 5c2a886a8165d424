#include "claimrag/retrieval/weighted_bm25.hpp"

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::retrieval {

std::vector<WeightedTerm> count_terms(const bm25::InvertedIndex& index, std::string_view query) {
  std::vector<WeightedTerm> terms;
  text::for_each_token(query, [&](std::string_view token) {
    const std::int64_t id = index.term_id(token);
    if (id < 0) return;
    for (auto& term : terms) {
      if (term.term == static_cast<std::uint32_t>(id)) {
        term.weight += 1.0;
        return;
      }
    }
    terms.push_back({static_cast<std::uint32_t>(id), 1.0});
  });
  return terms;
}

double bm25_idf(const bm25::InvertedIndex& index, std::uint32_t term) {
  const double documents = static_cast<double>(index.document_count());
  const double df = static_cast<double>(index.document_frequency(term));
  return std::log(1.0 + (documents - df + 0.5) / (df + 0.5));
}

void add_bm25_scores(const bm25::InvertedIndex& index, bm25::Bm25Parameters parameters,
                     std::span<const WeightedTerm> query, std::span<double> scores) {
  if (scores.size() != index.document_count()) {
    throw InternalError("add_bm25_scores: " + std::to_string(scores.size()) + " scores for " +
                        std::to_string(index.document_count()) + " documents");
  }
  const double average_length = index.average_document_length();
  for (const auto& [term, weight] : query) {
    const double idf = weight * bm25_idf(index, term);
    const bm25::PostingList list = index.postings(term);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::uint32_t document = list.documents[i];
      const double frequency = list.frequencies[i];
      const double length_norm =
          parameters.k1 * (1.0 - parameters.b + parameters.b * index.doc_lengths()[document] / average_length);
      scores[document] += idf * (frequency * (parameters.k1 + 1.0) / (frequency + length_norm));
    }
  }
}

PostingImpacts::PostingImpacts(const bm25::InvertedIndex& index, bm25::Bm25Parameters parameters) : index_(index) {
  const double average_length = index.average_document_length();
  idf_.resize(index.term_count());
  term_starts_.assign(1, 0);
  impacts_.reserve(index.posting_count());
  for (std::uint32_t t = 0; t < idf_.size(); ++t) {
    idf_[t] = bm25_idf(index, t);
    const bm25::PostingList list = index.postings(t);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const double frequency = list.frequencies[i];
      const double length_norm =
          parameters.k1 * (1.0 - parameters.b + parameters.b * index.doc_lengths()[list.documents[i]] / average_length);
      impacts_.push_back(frequency * (parameters.k1 + 1.0) / (frequency + length_norm));
    }
    term_starts_.push_back(impacts_.size());
  }
}

void PostingImpacts::add_scores(std::span<const WeightedTerm> query, std::span<double> scores) const {
  if (scores.size() != index_.document_count()) {
    throw InternalError("PostingImpacts::add_scores: " + std::to_string(scores.size()) + " scores for " +
                        std::to_string(index_.document_count()) + " documents");
  }
  for (const auto& [term, weight] : query) {
    const double idf = weight * idf_[term];
    const bm25::PostingList list = index_.postings(term);
    const double* impacts = impacts_.data() + term_starts_[term];
    for (std::size_t i = 0; i < list.size(); ++i) scores[list.documents[i]] += idf * impacts[i];
  }
}

std::vector<double> PostingImpacts::score_all(std::span<const WeightedTerm> query) const {
  std::vector<double> scores(index_.document_count(), 0.0);
  add_scores(query, scores);
  return scores;
}

}  // namespace claimrag::retrieval
