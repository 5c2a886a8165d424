#include "claimrag/experiment/retrieval/bm25_shards.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/bm25/shard_index.hpp"
#include "claimrag/bm25/sharded_search.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/io/checksum.hpp"

namespace claimrag::experiment {
namespace {

std::string shard_name(const bm25::IndexShard& shard) {
  return "shard " + std::to_string(shard.shard) + " of " + std::to_string(shard.shards);
}

/// Refuses `index` (at `path`) when it is no shard of the set that `first` (at `first_path`) is a shard of.
void check_same_set(const bm25::InvertedIndex& index, const std::string& path, const bm25::InvertedIndex& first,
                    const std::string& first_path) {
  const auto* shard = index.shard();
  const auto* model = first.shard();
  if (shard == nullptr) {
    throw DataError(path, "is an unsharded index: it cannot be searched together with the shards of " + first_path);
  }
  if (shard->shards != model->shards) {
    throw DataError(path, "is " + shard_name(*shard) + ", " + first_path + " is " + shard_name(*model) + ": shards of different sets");
  }
  if (shard->statistics_checksum != model->statistics_checksum || index.corpus_checksum() != first.corpus_checksum() ||
      shard->collection_documents != model->collection_documents ||
      shard->collection_total_length != model->collection_total_length) {
    throw DataError(path, "was built from other statistics or another corpus than " + first_path + " (statistics " +
                              shard->statistics_checksum + ", there " + model->statistics_checksum + ")");
  }
}

}  // namespace

bm25::CollectionStatistics write_bm25_statistics(const std::filesystem::path& beir_folder,
                                                 const std::filesystem::path& out_file) {
  auto statistics = bm25::compute_statistics(beir_folder / "corpus.jsonl");
  bm25::write_statistics(statistics, out_file);
  spdlog::info("BM25 statistics: {} documents, {} terms -> {}", statistics.documents, statistics.terms.size(), out_file.string());
  return statistics;
}

bm25::InvertedIndex index_bm25_shard(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                                     shard::ShardSpec spec, const std::filesystem::path& statistics_file,
                                     const ExperimentConfig& config) {
  const auto corpus_path = beir_folder / "corpus.jsonl";
  const bool given = !statistics_file.empty();
  const auto statistics = given ? bm25::read_statistics(statistics_file) : bm25::compute_statistics(corpus_path);
  const shard::Block block = shard::shard_block(statistics.documents, spec);
  const bm25::ShardBuild build{spec.index, spec.count, block.begin, block.size(), &statistics,
                               io::checksum_hex(bm25::statistics_text(statistics))};
  const std::string named = given ? statistics_file.string() : "the statistics computed from " + corpus_path.string();
  const nlohmann::json meta{{"shard",
                             {{"shard", spec.index},
                              {"shards", spec.count},
                              {"rule", shard::kBlockRule},
                              {"first_document", block.begin},
                              {"statistics", {{"file", given ? statistics_file.string() : ""}, {"checksum", build.statistics_checksum}}}}}};
  return write_bm25_index_folder(
      beir_folder, out_folder, config,
      [&](const std::filesystem::path& corpus, const std::filesystem::path& index) {
        bm25::write_shard_index_streaming(corpus, index, build, named);
      },
      meta);
}

std::vector<bm25::InvertedIndex> load_shard_set(const std::vector<std::filesystem::path>& index_folders,
                                                const std::string& corpus_checksum,
                                                const std::filesystem::path& corpus_path) {
  std::vector<bm25::InvertedIndex> loaded;
  std::vector<std::string> paths;
  for (const auto& folder : index_folders) {
    paths.push_back((folder / kBm25IndexFile).string());
    loaded.push_back(bm25::load_index(paths.back()));
    if (loaded.size() == 1 && loaded.front().shard() == nullptr) {
      throw DataError(paths.back(), "is an unsharded index: it cannot be searched together with other --index folders");
    }
    check_same_set(loaded.back(), paths.back(), loaded.front(), paths.front());
  }
  const bm25::IndexShard& model = *loaded.front().shard();
  if (loaded.front().corpus_checksum() != corpus_checksum) {
    throw DataError(paths.front(), "was built from another corpus than " + corpus_path.string() + " (checksum " +
                                       loaded.front().corpus_checksum() + ", now " + corpus_checksum + "): run claimrag index again");
  }
  std::vector<std::size_t> at(model.shards, SIZE_MAX);  // per shard number: its place in `loaded`
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    const auto k = static_cast<std::size_t>(loaded[i].shard()->shard);
    if (at[k] != SIZE_MAX) throw DataError(paths[i], "repeats " + shard_name(*loaded[i].shard()) + ", given already as " + paths[at[k]]);
    at[k] = i;
  }
  std::vector<bm25::InvertedIndex> ordered;
  std::uint64_t next_document = 0;
  for (std::size_t k = 0; k < at.size(); ++k) {
    if (at[k] == SIZE_MAX) {
      throw DataError(paths.front(), "shard " + std::to_string(k) + " of " + std::to_string(model.shards) +
                                         " of its set is missing: give every shard as --index");
    }
    const auto& shard = *loaded[at[k]].shard();
    if (shard.first_document != next_document) {
      throw DataError(paths[at[k]], shard_name(shard) + " starts at document " + std::to_string(shard.first_document) +
                                        ", where shard " + std::to_string(k) + " should start at " + std::to_string(next_document));
    }
    next_document += loaded[at[k]].document_count();
    ordered.push_back(std::move(loaded[at[k]]));
  }
  if (next_document != model.collection_documents) {
    throw DataError(paths.front(), "its shards hold " + std::to_string(next_document) + " documents of the corpus's " +
                                       std::to_string(model.collection_documents));
  }
  return ordered;
}

run::Run retrieve_bm25_shards(const std::filesystem::path& beir_folder,
                              const std::vector<std::filesystem::path>& index_folders,
                              const std::vector<dataset::Query>& queries, const Bm25Config& bm25, std::size_t k) {
  const auto corpus_path = beir_folder / "corpus.jsonl";
  const std::string corpus_checksum = io::file_checksum(corpus_path);
  if (index_folders.size() == 1) {
    auto index = bm25::load_index(index_folders.front() / kBm25IndexFile);
    if (index.shard() == nullptr) {
      const auto checked = checked_index(std::move(index), index_folders.front(), corpus_checksum, corpus_path);
      return retrieve_bm25(bm25::Searcher(checked, bm25.parameters), queries, k);
    }
  }
  const auto shards = load_shard_set(index_folders, corpus_checksum, corpus_path);
  const bm25::ShardedSearcher searcher(shards, bm25.parameters);
  const auto asked = query_texts(queries);
  return bm25::sharded_search_run(searcher, asked.ids, asked.texts, k);
}

}  // namespace claimrag::experiment
