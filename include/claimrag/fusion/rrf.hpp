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
// Query sets: every run must rank exactly the same queries. A query ranked by one run and not by
// another is a DataError naming that query and both runs: a hybrid run silently built from one
// retriever for some queries would be scored as if it were fused. The output lists queries in the
// first run's order.

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

/// Fuses `runs` (at least two). Throws UsageError on fewer than two runs or bad options, and
/// DataError when the runs do not rank the same queries.
run::Run reciprocal_rank_fusion(std::span<const NamedRun> runs, const RrfOptions& options = {});

}  // namespace claimrag::fusion
