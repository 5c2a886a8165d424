#pragma once
// Ranked lists and the TREC run format (`qid Q0 docid rank score tag`) that stages exchange.
//
// Rank order is the contract: within a query, documents are listed best first, and scores never
// increase down the list, so that tools which re-sort by score (trec_eval) see the same order.
// Ties in score keep the producer's order (each producer documents its tie rule).

#include <cstddef>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

namespace claimrag::run {

struct ScoredDocument {
  std::string doc_id;
  double score = 0;
};

/// The ranked documents of one query, best first.
struct Ranking {
  std::string query_id;
  std::vector<ScoredDocument> documents;
};

/// A run: one ranking per query, in the order the producer wrote them.
struct Run {
  std::string tag;
  std::string source;  ///< the file read_trec_run read it from, for messages; empty when built in memory
  std::vector<Ranking> rankings;

  /// The ranking of `query_id`, or nullptr when the run has none.
  [[nodiscard]] const Ranking* find(const std::string& query_id) const;
  /// Rebuilds the query-id lookup; call after changing `rankings` directly.
  void reindex();
  void add(Ranking ranking);

 private:
  std::unordered_map<std::string, std::size_t> index_;
};

/// Reads a TREC run. Every line needs six whitespace-separated fields, an integer rank >= 1 and a
/// finite score; one run has one tag. Lines of a query may come in any order and are sorted by
/// rank. Refused with `file:line: reason`: a malformed line, a document twice in one query, two
/// documents with one rank, and scores that rise with rank (the file's rank order and score
/// order would disagree).
Run read_trec_run(const std::filesystem::path& path);

/// read_trec_run of each path, read on the OpenMP threads; a failure is that of the first failing
/// path in order, whatever the thread count.
std::vector<Run> read_trec_runs(const std::vector<std::filesystem::path>& paths);

/// Writes a run in TREC format, ranks from 1, scores in their shortest exact decimal form.
/// Written atomically. Throws InternalError if a ranking's scores rise down the list, a score is
/// NaN or infinite, or an id breaks dataset/identifier.hpp's rule (ids are checked at load, so
/// that is a bug); nothing is written then.
void write_trec_run(const Run& run, const std::filesystem::path& path);

/// The run truncated to its first `depth` documents per query.
Run truncate(const Run& run, std::size_t depth);

}  // namespace claimrag::run
