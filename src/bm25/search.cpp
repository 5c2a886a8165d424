#include "claimrag/bm25/search.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/text/tokenizer.hpp"

namespace claimrag::bm25 {

Searcher::Searcher(const InvertedIndex& index, Bm25Parameters parameters)
    : index_(index), parameters_(parameters) {
  const double documents = static_cast<double>(index.document_count());
  idf_.resize(index.terms.size());
  for (std::size_t t = 0; t < idf_.size(); ++t) {
    const double df = static_cast<double>(index.term_offsets[t + 1] - index.term_offsets[t]);
    idf_[t] = std::log(1.0 + (documents - df + 0.5) / (df + 0.5));
  }
  const double average_length = index.average_document_length();
  length_norm_.resize(index.document_count());
  for (std::size_t d = 0; d < length_norm_.size(); ++d) {
    const double relative_length = average_length > 0 ? index.doc_lengths[d] / average_length : 0.0;
    length_norm_[d] = parameters.k1 * (1.0 - parameters.b + parameters.b * relative_length);
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

double Searcher::term_weight(std::uint32_t term, std::uint64_t posting) const {
  const double frequency = index_.posting_frequencies[posting];
  const std::uint32_t document = index_.posting_documents[posting];
  return idf_[term] * frequency * (parameters_.k1 + 1.0) / (frequency + length_norm_[document]);
}

std::vector<double> Searcher::score_all(std::string_view query) const {
  std::vector<double> scores(index_.document_count(), 0.0);
  for (const std::uint32_t term : query_terms(query)) {
    for (std::uint64_t p = index_.term_offsets[term]; p < index_.term_offsets[term + 1]; ++p) {
      scores[index_.posting_documents[p]] += term_weight(term, p);
    }
  }
  return scores;
}

double Searcher::score(std::string_view query, std::uint32_t document) const {
  double total = 0.0;
  for (const std::uint32_t term : query_terms(query)) {
    const auto begin = index_.posting_documents.begin() + static_cast<long>(index_.term_offsets[term]);
    const auto end = index_.posting_documents.begin() + static_cast<long>(index_.term_offsets[term + 1]);
    const auto found = std::lower_bound(begin, end, document);
    if (found != end && *found == document) {
      total += term_weight(term, static_cast<std::uint64_t>(found - index_.posting_documents.begin()));
    }
  }
  return total;
}

std::vector<Hit> Searcher::search(std::string_view query, std::size_t k) const {
  // Term-at-a-time accumulation into a dense score array; `touched` lists the matched documents.
  std::vector<double> scores(index_.document_count(), 0.0);
  std::vector<char> matched(index_.document_count(), 0);
  std::vector<std::uint32_t> touched;
  for (const std::uint32_t term : query_terms(query)) {
    for (std::uint64_t p = index_.term_offsets[term]; p < index_.term_offsets[term + 1]; ++p) {
      const std::uint32_t document = index_.posting_documents[p];
      scores[document] += term_weight(term, p);
      if (!matched[document]) {
        matched[document] = 1;
        touched.push_back(document);
      }
    }
  }
  std::vector<Hit> hits;
  hits.reserve(touched.size());
  for (const std::uint32_t document : touched) hits.push_back({document, scores[document]});
  const auto better = [](const Hit& a, const Hit& b) {
    return a.score != b.score ? a.score > b.score : a.document < b.document;
  };
  const std::size_t keep = std::min(k, hits.size());
  std::partial_sort(hits.begin(), hits.begin() + static_cast<long>(keep), hits.end(), better);
  hits.resize(keep);
  return hits;
}

std::vector<std::vector<Hit>> Searcher::search_many(const std::vector<std::string_view>& queries,
                                                    std::size_t k) const {
  std::vector<std::vector<Hit>> results(queries.size());
  const long count = static_cast<long>(queries.size());
#pragma omp parallel for schedule(dynamic, 8)
  for (long q = 0; q < count; ++q) results[static_cast<std::size_t>(q)] = search(queries[static_cast<std::size_t>(q)], k);
  return results;
}

run::Ranking to_ranking(const InvertedIndex& index, std::string query_id, const std::vector<Hit>& hits) {
  run::Ranking ranking{std::move(query_id), {}};
  ranking.documents.reserve(hits.size());
  for (const Hit& hit : hits) ranking.documents.push_back({index.doc_ids[hit.document], hit.score});
  return ranking;
}

}  // namespace claimrag::bm25
