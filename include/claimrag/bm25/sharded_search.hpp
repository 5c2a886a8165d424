#pragma once
// Searching the N shards of a document-sharded index (bm25/shard_index.hpp) as one index over the
// whole corpus: every shard scores with the whole corpus's statistics, so a document's score has
// the same bits in its shard as in one index; each shard's top k (ties: the earlier document first)
// are merged by (score, then corpus position), which is one index's tie rule, and cut at k. A
// document of the global top k is in its own shard's top k, so the merge loses none.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::bm25 {

/// One retrieved document of a sharded index: its shard, its position in that shard, its score.
struct ShardHit {
  std::size_t shard;
  std::uint32_t document;
  double score;
};

class ShardedSearcher {
 public:
  /// Keeps references to `shards`, which must be shards 0..N-1 of one index, in order (as
  /// checked by the caller), and outlive the searcher.
  ShardedSearcher(const std::vector<InvertedIndex>& shards, Bm25Parameters parameters);

  /// The top `k` documents of each query over all shards, best first; the same hits as
  /// Searcher::search_many over one index of the whole corpus. Each shard is searched with its
  /// queries spread over the OpenMP threads (search_many, or search_many_pruned when `pruned`);
  /// the result does not depend on the thread count.
  [[nodiscard]] std::vector<std::vector<ShardHit>> search_many(const std::vector<std::string_view>& queries,
                                                               std::size_t k, bool pruned = false) const;

  [[nodiscard]] const InvertedIndex& shard(std::size_t s) const { return searchers_[s].index(); }

 private:
  std::vector<Searcher> searchers_;
};

/// Merges per-shard top lists (`per_shard[s]` holds shard s's hits, best first) into the top `k`:
/// higher score first, then the lower shard, then the earlier document in it.
std::vector<ShardHit> merge_shard_hits(const std::vector<std::vector<Hit>>& per_shard, std::size_t k);

/// A run tagged "bm25" of the top `depth` documents of every query (query_ids[i] asks texts[i]),
/// with document ids from the shards: the bytes search_run writes for one index over the whole
/// corpus. Precondition: query_ids and texts have equal sizes.
run::Run sharded_search_run(const ShardedSearcher& searcher, const std::vector<std::string>& query_ids,
                            const std::vector<std::string_view>& texts, std::size_t depth);

}  // namespace claimrag::bm25
