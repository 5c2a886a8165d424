#pragma once
// The document-sharded BM25 index as the command line builds and searches it: the statistics pass
// over the whole corpus, one shard's index folder, and retrieval over a set of shard folders
// whose run is byte-identical to retrieval over one index of the whole corpus. docs/cluster.md
// describes the whole.

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/bm25/collection_statistics.hpp"
#include "claimrag/bm25/index.hpp"
#include "claimrag/dataset/beir.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/shard/shard_spec.hpp"

namespace claimrag::experiment {

/// Computes the statistics of `<beir_folder>/corpus.jsonl` and writes them to `out_file`.
bm25::CollectionStatistics write_bm25_statistics(const std::filesystem::path& beir_folder,
                                                 const std::filesystem::path& out_file);

/// Builds shard `spec` of the corpus of `beir_folder` (the documents of block spec.index of
/// shard::shard_block) into `<out_folder>/bm25.index` and `meta.json`, scoring with the statistics
/// read from `statistics_file`, or computed here when it is empty (the same bytes either way).
bm25::InvertedIndex index_bm25_shard(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                                     shard::ShardSpec spec, const std::filesystem::path& statistics_file,
                                     const ExperimentConfig& config);

/// Loads `<folder>/bm25.index` of every folder as the shards of one index, in shard order. A
/// DataError (exit 3) naming the file refuses: an unsharded index among several folders, shards
/// of different statistics, counts or corpora, a corpus other than the one at `corpus_path`
/// (checksum `corpus_checksum`), a repeated or missing shard, blocks that do not tile the corpus.
std::vector<bm25::InvertedIndex> load_shard_set(const std::vector<std::filesystem::path>& index_folders,
                                                const std::string& corpus_checksum,
                                                const std::filesystem::path& corpus_path);

/// retrieve_bm25 over the shards in `index_folders` (any order): the run one index over the whole
/// corpus gives. One folder holding an unsharded index is retrieve_bm25 itself.
run::Run retrieve_bm25_shards(const std::filesystem::path& beir_folder,
                              const std::vector<std::filesystem::path>& index_folders,
                              const std::vector<dataset::Query>& queries, const Bm25Config& bm25, std::size_t k);

}  // namespace claimrag::experiment
