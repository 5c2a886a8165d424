#pragma once
// A document-sharded BM25 index: shard K of N indexes the K-th contiguous block of the corpus's
// documents (in corpus order) and records the whole corpus's statistics
// (bm25/collection_statistics.hpp) for each of its terms, so that its Searcher gives every
// document the bits one index over the whole corpus gives it. ShardedSearcher
// (bm25/sharded_search.hpp) searches the N shards together.

#include <cstdint>
#include <filesystem>
#include <string>

#include "claimrag/bm25/collection_statistics.hpp"
#include "claimrag/bm25/streaming_build.hpp"

namespace claimrag::bm25 {

/// Which shard to build: its place in the corpus, and the statistics it scores with.
struct ShardBuild {
  std::uint64_t shard = 0;   ///< K
  std::uint64_t shards = 1;  ///< N
  std::uint64_t first_document = 0;  ///< the block [first_document, first_document + documents)
  std::uint64_t documents = 0;
  const CollectionStatistics* statistics = nullptr;  ///< must outlive the call
  std::string statistics_checksum;  ///< checksum_hex(statistics_text(*statistics))
};

/// Indexes the block of `corpus_jsonl` that `build` names into `index_path`, as
/// write_index_streaming does the whole. DataError naming `statistics_file` when the corpus is not
/// the one the statistics were computed from (checksum, document count, a term or frequency they
/// lack); then nothing is written.
StreamingBuildSummary write_shard_index_streaming(const std::filesystem::path& corpus_jsonl,
                                                  const std::filesystem::path& index_path, const ShardBuild& build,
                                                  const std::string& statistics_file,
                                                  const StreamingBuildOptions& options = {});

}  // namespace claimrag::bm25
