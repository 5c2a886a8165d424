#include "claimrag/bm25/search.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/text/tokenizer.hpp"
#include "ranking_of_hits.hpp"
#include "top_hits.hpp"

namespace claimrag::bm25 {

Searcher::Searcher(const InvertedIndex& index, Bm25Parameters parameters)
    : index_(index), parameters_(parameters) {
  const auto lengths = index.doc_lengths();
  document_norm_.resize(lengths.size());
  for (std::size_t d = 0; d < lengths.size(); ++d) document_norm_[d] = length_norm(lengths[d]);
}

double Searcher::length_norm(std::uint32_t length) const {
  const double average_length = index_.collection_average_document_length();
  const double relative_length = average_length > 0 ? length / average_length : 0.0;
  return parameters_.k1 * (1.0 - parameters_.b + parameters_.b * relative_length);
}

double Searcher::idf(std::uint32_t term) const {
  // A shard reads the whole corpus's figures, so its scores are those of one index over it.
  const double documents = static_cast<double>(index_.collection_document_count());
  const double df = static_cast<double>(index_.collection_document_frequency(term));
  return std::log(1.0 + (documents - df + 0.5) / (df + 0.5));
}

double Searcher::max_impact(std::uint32_t term) const {
  const double term_idf = idf(term);
  const auto frequencies = index_.bound_frequencies(term);
  const auto lengths = index_.bound_lengths(term);
  double largest = 0.0;
  for (std::size_t i = 0; i < frequencies.size(); ++i) {
    largest = std::max(largest, impact(term_idf, frequencies[i], length_norm(lengths[i])));
  }
  return largest;
}

std::vector<std::uint32_t> Searcher::query_terms(std::string_view query) const {
  std::vector<std::uint32_t> terms;
  text::for_each_token(query, [&](std::string_view token) {
    const std::int64_t id = index_.term_id(token);
    if (id < 0) return;
    terms.push_back(static_cast<std::uint32_t>(id));
    (void)index_.postings(terms.back());
  });
  return terms;
}

void Searcher::accumulate(const std::vector<std::uint32_t>& terms, std::vector<double>& scores) const {
  for (const std::uint32_t term : terms) {
    const double term_idf = idf(term);
    const PostingList list = index_.postings(term);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::uint32_t document = list.documents[i];
      scores[document] += impact(term_idf, list.frequencies[i], document_norm_[document]);
    }
  }
}

std::vector<double> Searcher::score_all(std::string_view query) const {
  std::vector<double> scores(index_.document_count(), 0.0);
  accumulate(query_terms(query), scores);
  return scores;
}

double Searcher::score(std::string_view query, std::uint32_t document) const {
  // The same additions in the same order as accumulate(), so the value equals search()'s.
  double total = 0.0;
  for (const std::uint32_t term : query_terms(query)) {
    const PostingList list = index_.postings(term);
    const auto found = std::lower_bound(list.documents.begin(), list.documents.end(), document);
    if (found != list.documents.end() && *found == document) {
      const auto i = static_cast<std::size_t>(found - list.documents.begin());
      total += impact(idf(term), list.frequencies[i], document_norm_[document]);
    }
  }
  return total;
}

std::vector<Hit> Searcher::search(std::string_view query, std::size_t k) const {
  std::vector<double> scores(index_.document_count(), 0.0);
  return search(query, k, scores);
}

std::vector<Hit> Searcher::search(std::string_view query, std::size_t k, std::vector<double>& scores) const {
  return search_terms(query_terms(query), k, scores);
}

std::vector<Hit> Searcher::search_pruned(std::string_view query, std::size_t k) const {
  return search_pruned_terms(query_terms(query), k);
}

std::vector<Hit> Searcher::search_terms(const std::vector<std::uint32_t>& terms, std::size_t k,
                                        std::vector<double>& scores) const {
  accumulate(terms, scores);
  // Every impact is positive, so a document matched a query token exactly when its score is positive.
  detail::TopHits top(k);
  for (std::uint32_t d = 0; d < scores.size(); ++d) {
    if (scores[d] <= 0.0) continue;
    top.offer(d, scores[d]);
    scores[d] = 0.0;
  }
  return top.take_sorted();
}

std::vector<std::vector<std::uint32_t>> Searcher::terms_of(const std::vector<std::string_view>& queries) const {
  std::vector<std::vector<std::uint32_t>> terms;
  terms.reserve(queries.size());
  for (const auto query : queries) terms.push_back(query_terms(query));
  return terms;
}

std::vector<std::vector<Hit>> Searcher::search_many(const std::vector<std::string_view>& queries,
                                                    std::size_t k) const {
  // Terms are looked up (and their postings checked) before the threads start: an exception
  // must not leave an OpenMP region, and the first damaged term in query order is the one reported.
  const auto terms = terms_of(queries);
  std::vector<std::vector<Hit>> results(queries.size());
  const long count = static_cast<long>(queries.size());
#pragma omp parallel
  {
    std::vector<double> scores(index_.document_count(), 0.0);
#pragma omp for schedule(dynamic, 8)
    for (long q = 0; q < count; ++q) {
      results[static_cast<std::size_t>(q)] = search_terms(terms[static_cast<std::size_t>(q)], k, scores);
    }
  }
  return results;
}

std::vector<std::vector<Hit>> Searcher::search_many_pruned(const std::vector<std::string_view>& queries,
                                                           std::size_t k) const {
  const auto terms = terms_of(queries);
  std::vector<std::vector<Hit>> results(queries.size());
  const long count = static_cast<long>(queries.size());
#pragma omp parallel for schedule(dynamic, 8)
  for (long q = 0; q < count; ++q) {
    results[static_cast<std::size_t>(q)] = search_pruned_terms(terms[static_cast<std::size_t>(q)], k);
  }
  return results;
}

run::Ranking to_ranking(const InvertedIndex& index, std::string query_id, const std::vector<Hit>& hits) {
  return detail::ranking_of(std::move(query_id), hits, [&](const Hit& hit) { return index.doc_ids()[hit.document]; });
}

run::Run search_run(const Searcher& searcher, const std::vector<std::string>& query_ids,
                    const std::vector<std::string_view>& texts, std::size_t depth) {
  const InvertedIndex& index = searcher.index();
  return detail::run_of(query_ids, searcher.search_many(texts, depth),
                        [&](const Hit& hit) { return index.doc_ids()[hit.document]; });
}

}  // namespace claimrag::bm25
