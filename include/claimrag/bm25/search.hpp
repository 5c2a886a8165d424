#pragma once
// Okapi BM25 scoring and top-k retrieval over an InvertedIndex:
//   score(q, d) = Σ over query-token occurrences t of  idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl))
//   idf(t)      = ln(1 + (N − df + 0.5) / (df + 0.5))
// A query word written twice adds its term twice. Query tokens absent from the corpus add nothing.

#include <cstdint>
#include <string_view>
#include <vector>

#include "claimrag/bm25/index.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::bm25 {

struct Bm25Parameters {
  double k1 = 1.2;
  double b = 0.75;
};

/// One retrieved document: its corpus position and score.
struct Hit {
  std::uint32_t document;
  double score;
};

/// Scores queries against one index with fixed k1 and b. Thread-safe after construction.
class Searcher {
 public:
  /// Keeps a reference to `index`, which must outlive the searcher.
  Searcher(const InvertedIndex& index, Bm25Parameters parameters);

  /// The top `k` documents for `query`, best first. Only documents sharing at least one token
  /// with the query are returned, so fewer than `k` may come back. Ties in score are broken by
  /// corpus order (the earlier document first). Term at a time over every posting of the query's
  /// terms into a dense accumulator: the fastest exact scorer at SciFact's size (5,183 abstracts)
  /// and the oracle search_pruned() is tested against.
  [[nodiscard]] std::vector<Hit> search(std::string_view query, std::size_t k) const;
  /// search() reusing `scores` (document_count() zeros on entry, zeros again on return) so that
  /// repeated queries allocate nothing large.
  [[nodiscard]] std::vector<Hit> search(std::string_view query, std::size_t k, std::vector<double>& scores) const;

  /// The same hits as search(), bit for bit and in the same order, by MaxScore dynamic pruning
  /// (Turtle & Flood 1995), document at a time: the query's terms are ordered by their largest
  /// possible contribution; once k documents are held, the terms whose bounds together cannot lift
  /// a document above the k-th score only confirm documents found through the others, and a
  /// document is dropped as soon as its known contributions plus the bounds of the unread terms
  /// cannot beat the k-th score. Every document kept sums its contributions in query order, as
  /// search() does, and the bounds carry a relative margin that covers the rounding of sums taken
  /// in another order. It touches fewer postings than search() but pays more per posting; see
  /// tests/bench/bench_bm25_scale.cpp for where it wins.
  [[nodiscard]] std::vector<Hit> search_pruned(std::string_view query, std::size_t k) const;

  /// The BM25 score of every document for `query` (zero where no token matches).
  [[nodiscard]] std::vector<double> score_all(std::string_view query) const;

  /// The BM25 score of one document, summed in the same order as search() (so equal values).
  [[nodiscard]] double score(std::string_view query, std::uint32_t document) const;

  /// search() for many queries, spread over the OpenMP threads; the result does not depend on
  /// the thread count.
  [[nodiscard]] std::vector<std::vector<Hit>> search_many(const std::vector<std::string_view>& queries,
                                                          std::size_t k) const;
  /// search_pruned() for many queries, likewise.
  [[nodiscard]] std::vector<std::vector<Hit>> search_many_pruned(const std::vector<std::string_view>& queries,
                                                                 std::size_t k) const;

  [[nodiscard]] const InvertedIndex& index() const { return index_; }

 private:
  /// Term ids of the query's tokens in query order, repeats kept, unknown tokens dropped; their
  /// postings are checked here (InvertedIndex::postings), so a damaged file throws before any
  /// parallel work starts.
  [[nodiscard]] std::vector<std::uint32_t> query_terms(std::string_view query) const;
  [[nodiscard]] std::vector<std::vector<std::uint32_t>> terms_of(const std::vector<std::string_view>& queries) const;
  [[nodiscard]] std::vector<Hit> search_terms(const std::vector<std::uint32_t>& terms, std::size_t k,
                                              std::vector<double>& scores) const;
  [[nodiscard]] std::vector<Hit> search_pruned_terms(const std::vector<std::uint32_t>& occurrences, std::size_t k) const;
  /// Adds every query-term occurrence's contribution into `scores`, in query order.
  void accumulate(const std::vector<std::uint32_t>& terms, std::vector<double>& scores) const;
  [[nodiscard]] double idf(std::uint32_t term) const;
  /// k1·(1 − b + b·length/avgdl).
  [[nodiscard]] double length_norm(std::uint32_t length) const;
  /// The largest contribution of one occurrence of `term`, from the index's bound pairs.
  [[nodiscard]] double max_impact(std::uint32_t term) const;
  /// One posting's contribution. Every scorer and bound goes through this one expression, so equal
  /// inputs give equal bits. Computed on demand rather than stored per posting, so that opening a
  /// large index costs nothing per posting.
  [[nodiscard]] double impact(double term_idf, std::uint32_t frequency, double document_norm) const {
    return term_idf * frequency * (parameters_.k1 + 1.0) / (frequency + document_norm);
  }

  const InvertedIndex& index_;
  Bm25Parameters parameters_;
  std::vector<double> document_norm_;  ///< per document: length_norm(its length)
};

/// Turns hits into a run ranking with document ids from the index.
run::Ranking to_ranking(const InvertedIndex& index, std::string query_id, const std::vector<Hit>& hits);

/// A run tagged "bm25" of the top `depth` documents of every query (query_ids[i] asks texts[i]),
/// searched with search_many. Precondition: query_ids and texts have equal sizes.
run::Run search_run(const Searcher& searcher, const std::vector<std::string>& query_ids,
                    const std::vector<std::string_view>& texts, std::size_t depth);

}  // namespace claimrag::bm25
