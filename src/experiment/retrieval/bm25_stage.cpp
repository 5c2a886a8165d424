#include "claimrag/experiment/retrieval/bm25_stage.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/bm25/streaming_build.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/meta.hpp"
#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/io/checksum.hpp"

namespace claimrag::experiment {

std::vector<dataset::Query> select_queries(const std::filesystem::path& beir_folder,
                                           const QuerySelection& selection) {
  const bool by_split = !selection.split.empty();
  const bool by_file = !selection.queries_file.empty();
  if (by_split == by_file) throw UsageError("give exactly one of --split and --queries");
  if (by_file) return dataset::load_queries(selection.queries_file);
  const auto qrels = dataset::load_split(beir_folder, selection.split);
  return dataset::queries_of_split(dataset::load_queries(beir_folder / "queries.jsonl"), qrels,
                                   (beir_folder / "qrels" / (selection.split + ".tsv")).string());
}

bm25::InvertedIndex write_bm25_index_folder(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                                            const ExperimentConfig& config, const Bm25IndexWriter& write_index,
                                            const nlohmann::json& extra_meta) {
  const auto corpus_path = beir_folder / "corpus.jsonl";
  const auto index_path = out_folder / kBm25IndexFile;
  // The index and the meta file that describes it are replaced together or not at all.
  io::AtomicFileSet files;
  const auto staged_index = files.stage(index_path);
  // Streamed: neither the corpus nor its postings are ever held whole in memory.
  write_index(corpus_path, staged_index);
  auto index = bm25::load_index(staged_index);
  const std::string& checksum = index.corpus_checksum();
  nlohmann::json meta{{"stage", "index"},
                      {"method", "bm25"},
                      {"corpus", {{"file", corpus_path.string()}, {"checksum", checksum}}},
                      {"documents", index.document_count()},
                      {"terms", index.term_count()},
                      {"average_document_length", index.average_document_length()}};
  meta.update(extra_meta);
  write_meta(out_folder, config, meta, &files);
  files.commit();
  spdlog::info("BM25 index: {} documents, {} terms, {} postings -> {}", index.document_count(),
               index.term_count(), index.posting_count(), index_path.string());
  return index;
}

bm25::InvertedIndex index_bm25(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                const ExperimentConfig& config) {
  return write_bm25_index_folder(beir_folder, out_folder, config,
                                 [](const std::filesystem::path& corpus, const std::filesystem::path& index) {
                                   bm25::write_index_streaming(corpus, index);
                                 });
}

bm25::InvertedIndex load_checked_index(const std::filesystem::path& index_folder, const dataset::Corpus& corpus,
                                       const std::filesystem::path& corpus_path) {
  return checked_index(bm25::load_index(index_folder / kBm25IndexFile), index_folder, corpus.checksum, corpus_path);
}

bm25::InvertedIndex checked_index(bm25::InvertedIndex index, const std::filesystem::path& index_folder,
                                  const std::string& corpus_checksum, const std::filesystem::path& corpus_path) {
  const auto index_path = index_folder / kBm25IndexFile;
  if (const auto* shard = index.shard()) {
    throw DataError(index_path.string(), "is shard " + std::to_string(shard->shard) + " of " + std::to_string(shard->shards) +
                                             " of a document-sharded index: only retrieve --method bm25 reads one, given every "
                                             "shard as --index");
  }
  if (index.corpus_checksum() != corpus_checksum) {
    throw DataError(index_path.string(), "was built from another corpus than " + corpus_path.string() + " (checksum " +
                                             index.corpus_checksum() + ", now " + corpus_checksum +
                                             "): run claimrag index again");
  }
  return index;
}

run::Run retrieve_bm25(const std::filesystem::path& beir_folder,
                       const std::filesystem::path& index_folder,
                       const std::vector<dataset::Query>& queries, const Bm25Config& bm25,
                       std::size_t k) {
  auto loaded = bm25::load_index(index_folder / kBm25IndexFile);
  const auto corpus_path = beir_folder / "corpus.jsonl";
  const auto index = checked_index(std::move(loaded), index_folder, io::file_checksum(corpus_path), corpus_path);
  return retrieve_bm25(bm25::Searcher(index, bm25.parameters), queries, k);
}

QueryTexts query_texts(const std::vector<dataset::Query>& queries) {
  QueryTexts texts;
  for (const auto& query : queries) {
    texts.ids.push_back(query.id);
    texts.texts.emplace_back(query.text);
  }
  return texts;
}

run::Run retrieve_bm25(const bm25::Searcher& searcher, const std::vector<dataset::Query>& queries, std::size_t k) {
  const auto asked = query_texts(queries);
  return bm25::search_run(searcher, asked.ids, asked.texts, k);
}

}  // namespace claimrag::experiment
