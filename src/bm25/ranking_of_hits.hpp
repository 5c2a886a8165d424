#pragma once
// Hits (of one index, or of a sharded one) as run rankings: the one place that turns scored
// documents into the lines of a BM25 run, so that sharded and unsharded runs are written alike.

#include <string>
#include <vector>

#include "claimrag/run/run.hpp"

namespace claimrag::bm25::detail {

/// The ranking of `query_id`: each hit's document id (`id_of(hit)`) with its score, in order.
template <class Hit, class IdOf>
run::Ranking ranking_of(std::string query_id, const std::vector<Hit>& hits, IdOf&& id_of) {
  run::Ranking ranking{std::move(query_id), {}};
  ranking.documents.reserve(hits.size());
  for (const Hit& hit : hits) ranking.documents.push_back({std::string(id_of(hit)), hit.score});
  return ranking;
}

/// A run tagged "bm25" holding ranking_of(query_ids[q], hits[q], id_of) for every query q.
template <class Hit, class IdOf>
run::Run run_of(const std::vector<std::string>& query_ids, const std::vector<std::vector<Hit>>& hits, IdOf&& id_of) {
  run::Run run;
  run.tag = "bm25";
  for (std::size_t q = 0; q < query_ids.size(); ++q) run.add(ranking_of(query_ids[q], hits[q], id_of));
  return run;
}

}  // namespace claimrag::bm25::detail
