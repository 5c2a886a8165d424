#include "claimrag/bm25/sharded_search.hpp"

#include <algorithm>

#include "ranking_of_hits.hpp"

namespace claimrag::bm25 {

ShardedSearcher::ShardedSearcher(const std::vector<InvertedIndex>& shards, Bm25Parameters parameters) {
  searchers_.reserve(shards.size());
  for (const auto& shard : shards) searchers_.emplace_back(shard, parameters);
}

std::vector<ShardHit> merge_shard_hits(const std::vector<std::vector<Hit>>& per_shard, std::size_t k) {
  std::vector<ShardHit> merged;
  for (std::size_t s = 0; s < per_shard.size(); ++s) {
    for (const Hit& hit : per_shard[s]) merged.push_back({s, hit.document, hit.score});
  }
  // Shards hold contiguous blocks in corpus order, so (shard, document) is the corpus order.
  const auto better = [](const ShardHit& a, const ShardHit& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.shard != b.shard ? a.shard < b.shard : a.document < b.document;
  };
  const std::size_t kept = std::min(k, merged.size());
  std::partial_sort(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(kept), merged.end(), better);
  merged.resize(kept);
  return merged;
}

std::vector<std::vector<ShardHit>> ShardedSearcher::search_many(const std::vector<std::string_view>& queries,
                                                                std::size_t k, bool pruned) const {
  // Shard after shard, each with every query over the threads: a shard's postings are read while hot.
  std::vector<std::vector<std::vector<Hit>>> by_shard;
  by_shard.reserve(searchers_.size());
  for (const Searcher& searcher : searchers_) {
    by_shard.push_back(pruned ? searcher.search_many_pruned(queries, k) : searcher.search_many(queries, k));
  }
  std::vector<std::vector<ShardHit>> results(queries.size());
  std::vector<std::vector<Hit>> per_shard(searchers_.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    for (std::size_t s = 0; s < searchers_.size(); ++s) per_shard[s] = std::move(by_shard[s][q]);
    results[q] = merge_shard_hits(per_shard, k);
  }
  return results;
}

run::Run sharded_search_run(const ShardedSearcher& searcher, const std::vector<std::string>& query_ids,
                            const std::vector<std::string_view>& texts, std::size_t depth) {
  return detail::run_of(query_ids, searcher.search_many(texts, depth),
                        [&](const ShardHit& hit) { return searcher.shard(hit.shard).doc_ids()[hit.document]; });
}

}  // namespace claimrag::bm25
