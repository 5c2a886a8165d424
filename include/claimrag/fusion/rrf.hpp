#pragma once
// Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009) of two or more runs:
//   score(d) = Σ over the runs whose top `depth` hold d of 1 / (k + rank_r(d))
// with rank_r(d) the 1-based position of d in run r after truncation to `depth`. (Positions,
// not the rank column of a file: read_trec_run has already ordered each ranking, so gaps in a
// file's ranks are closed.) The fused ranking keeps the best `depth` documents.
//
// The terms of a document's sum are added in increasing rank order, so a fused score (and hence
// the output) does not depend on the order in which the runs are given, and two documents
// with the same multiset of ranks get bit-identical scores.
//
// Tie rule, for equal fused scores: the better (smaller) best rank across runs first, then the
// document id in ascending byte order.
//
// Query sets: a TREC run cannot hold an empty ranking, so a query without lines in a run is a query
// that run retrieved nothing for (BM25 for a claim sharing no token with the corpus), and it is
// fused as an empty ranking. The output lists the first run's queries in its order, then those
// only later runs rank, in their order; a query no run ranks stays absent (empty) in the output.

#include <cstddef>
#include <span>
#include <string>

#include "claimrag/run/run.hpp"

namespace claimrag::fusion {

/// Fusion parameters; the defaults are the paper's.
struct RrfOptions {
  double k = 60.0;            ///< RRF's constant, finite and >= 0
  std::size_t depth = 200;    ///< documents read from each run and written per query, >= 1
  std::string tag = "hybrid"; ///< tag of the fused run: one word
};

/// One input of a fusion: the run and where it came from (named in errors).
struct NamedRun {
  const run::Run* run;
  std::string source;
};

/// 1 / (k + rank), the contribution of one run at 1-based `rank`.
double rrf_term(double k, std::size_t rank);

/// Fuses `runs` (at least two). Throws UsageError on fewer than two runs or bad options.
run::Run reciprocal_rank_fusion(std::span<const NamedRun> runs, const RrfOptions& options = {});

}  // namespace claimrag::fusion
