#pragma once
// The BM25 stages as the command line and the reproduction run them: build and save the index,
// then retrieve a run for a set of queries.

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/dataset/beir.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::experiment {

/// File name of the BM25 index inside an index folder.
inline constexpr const char* kBm25IndexFile = "bm25.index";

/// Which queries to run: the judged queries of a split of the dataset, or a user's own BEIR-style
/// queries.jsonl. Exactly one must be set.
struct QuerySelection {
  std::string split;
  std::filesystem::path queries_file;
};

/// Loads the selected queries from `beir_folder` (UsageError when neither or both are set).
std::vector<dataset::Query> select_queries(const std::filesystem::path& beir_folder,
                                           const QuerySelection& selection);

/// Builds the BM25 index of `<beir_folder>/corpus.jsonl` into `<out_folder>/bm25.index` and
/// writes `<out_folder>/meta.json`; returns the index as read back from the file.
bm25::InvertedIndex index_bm25(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                const ExperimentConfig& config);

/// Writes an index of the corpus file (first argument) to the path given (second argument).
using Bm25IndexWriter = std::function<void(const std::filesystem::path&, const std::filesystem::path&)>;

/// Writes `<out_folder>/bm25.index` with `write_index` and `<out_folder>/meta.json` (with
/// `extra_meta`'s fields too) as one set; returns the index as read back from the file.
bm25::InvertedIndex write_bm25_index_folder(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                                            const ExperimentConfig& config, const Bm25IndexWriter& write_index,
                                            const nlohmann::json& extra_meta = nlohmann::json::object());

/// Loads `<index_folder>/bm25.index`, which must have been built from `corpus` (read from
/// `corpus_path`): a DataError naming the index asks to index again otherwise, and refuses a shard
/// of a document-sharded index (experiment/retrieval/bm25_shards.hpp).
bm25::InvertedIndex load_checked_index(const std::filesystem::path& index_folder, const dataset::Corpus& corpus,
                                       const std::filesystem::path& corpus_path);
/// The same check of an index already read from `<index_folder>/bm25.index`, against the checksum
/// of the corpus at `corpus_path`.
bm25::InvertedIndex checked_index(bm25::InvertedIndex index, const std::filesystem::path& index_folder,
                                  const std::string& corpus_checksum, const std::filesystem::path& corpus_path);

/// Retrieves the top `k` documents per query with the index in `index_folder`, which must have
/// been built from the corpus in `beir_folder` (checked by checksum). The run's tag is "bm25".
run::Run retrieve_bm25(const std::filesystem::path& beir_folder,
                       const std::filesystem::path& index_folder,
                       const std::vector<dataset::Query>& queries, const Bm25Config& bm25,
                       std::size_t k);

/// The ids and texts of `queries`, in order, as the searchers take them (views into `queries`).
struct QueryTexts {
  std::vector<std::string> ids;
  std::vector<std::string_view> texts;
};
QueryTexts query_texts(const std::vector<dataset::Query>& queries);

/// The same with an index already loaded and checked, through `searcher`.
run::Run retrieve_bm25(const bm25::Searcher& searcher, const std::vector<dataset::Query>& queries, std::size_t k);

}  // namespace claimrag::experiment
