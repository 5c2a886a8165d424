#include "claimrag/bm25/search.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/text/tokenizer.hpp"
#include "top_hits.hpp"

namespace claimrag::bm25 {

Searcher::Searcher(const InvertedIndex& index, Bm25Parameters parameters)
    : index_(index), parameters_(parameters) {
  const double documents = static_cast<double>(index.document_count());
  const double average_length = index.average_document_length();
  const auto norm = [&](std::uint32_t length) {
    const double relative_length = average_length > 0 ? length / average_length : 0.0;
    return parameters.k1 * (1.0 - parameters.b + parameters.b * relative_length);
  };
  // One expression for every impact, so that the bound pairs give exactly the largest posting's.
  const auto impact_of = [&](double idf, double frequency, double length_norm) {
    return idf * frequency * (parameters.k1 + 1.0) / (frequency + length_norm);
  };
  std::vector<double> length_norm(index.document_count());
  for (std::size_t d = 0; d < length_norm.size(); ++d) length_norm[d] = norm(index.doc_lengths[d]);
  impacts_.resize(index.posting_documents.size());
  max_impact_.assign(index.terms.size(), 0.0);
  for (std::size_t t = 0; t < index.terms.size(); ++t) {
    const double df = static_cast<double>(index.term_offsets[t + 1] - index.term_offsets[t]);
    const double idf = std::log(1.0 + (documents - df + 0.5) / (df + 0.5));
    for (std::uint64_t p = index.term_offsets[t]; p < index.term_offsets[t + 1]; ++p) {
      impacts_[p] = impact_of(idf, index.posting_frequencies[p], length_norm[index.posting_documents[p]]);
    }
    for (std::uint64_t i = index.bound_offsets[t]; i < index.bound_offsets[t + 1]; ++i) {
      max_impact_[t] = std::max(max_impact_[t], impact_of(idf, index.bound_frequencies[i], norm(index.bound_lengths[i])));
    }
  }
}

std::vector<std::uint32_t> Searcher::query_terms(std::string_view query) const {
  std::vector<std::uint32_t> terms;
  text::for_each_token(query, [&](std::string_view token) {
    const std::int64_t id = index_.term_id(token);
    if (id >= 0) terms.push_back(static_cast<std::uint32_t>(id));
  });
  return terms;
}

void Searcher::accumulate(const std::vector<std::uint32_t>& terms, std::vector<double>& scores) const {
  const std::uint32_t* documents = index_.posting_documents.data();
  for (const std::uint32_t term : terms) {
    for (std::uint64_t p = index_.term_offsets[term]; p < index_.term_offsets[term + 1]; ++p) {
      scores[documents[p]] += impact(term, p);
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
    const auto begin = index_.posting_documents.begin() + static_cast<long>(index_.term_offsets[term]);
    const auto end = index_.posting_documents.begin() + static_cast<long>(index_.term_offsets[term + 1]);
    const auto found = std::lower_bound(begin, end, document);
    if (found != end && *found == document) total += impact(term, static_cast<std::uint64_t>(found - index_.posting_documents.begin()));
  }
  return total;
}

std::vector<Hit> Searcher::search(std::string_view query, std::size_t k) const {
  std::vector<double> scores(index_.document_count(), 0.0);
  return search(query, k, scores);
}

std::vector<Hit> Searcher::search(std::string_view query, std::size_t k, std::vector<double>& scores) const {
  accumulate(query_terms(query), scores);
  // Every impact is positive, so a document matched a query token exactly when its score is positive.
  detail::TopHits top(k);
  for (std::uint32_t d = 0; d < scores.size(); ++d) {
    if (scores[d] <= 0.0) continue;
    top.offer(d, scores[d]);
    scores[d] = 0.0;
  }
  return top.take_sorted();
}

std::vector<std::vector<Hit>> Searcher::search_many(const std::vector<std::string_view>& queries,
                                                    std::size_t k) const {
  std::vector<std::vector<Hit>> results(queries.size());
  const long count = static_cast<long>(queries.size());
#pragma omp parallel
  {
    std::vector<double> scores(index_.document_count(), 0.0);
#pragma omp for schedule(dynamic, 8)
    for (long q = 0; q < count; ++q) {
      results[static_cast<std::size_t>(q)] = search(queries[static_cast<std::size_t>(q)], k, scores);
    }
  }
  return results;
}

std::vector<std::vector<Hit>> Searcher::search_many_pruned(const std::vector<std::string_view>& queries,
                                                           std::size_t k) const {
  std::vector<std::vector<Hit>> results(queries.size());
  const long count = static_cast<long>(queries.size());
#pragma omp parallel for schedule(dynamic, 8)
  for (long q = 0; q < count; ++q) results[static_cast<std::size_t>(q)] = search_pruned(queries[static_cast<std::size_t>(q)], k);
  return results;
}

run::Ranking to_ranking(const InvertedIndex& index, std::string query_id, const std::vector<Hit>& hits) {
  run::Ranking ranking{std::move(query_id), {}};
  ranking.documents.reserve(hits.size());
  for (const Hit& hit : hits) ranking.documents.push_back({index.doc_ids[hit.document], hit.score});
  return ranking;
}

run::Run search_run(const Searcher& searcher, const std::vector<std::string>& query_ids,
                    const std::vector<std::string_view>& texts, std::size_t depth) {
  const auto hits = searcher.search_many(texts, depth);
  run::Run run;
  run.tag = "bm25";
  for (std::size_t q = 0; q < query_ids.size(); ++q) run.add(to_ranking(searcher.index(), query_ids[q], hits[q]));
  return run;
}

}  // namespace claimrag::bm25
