#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/experiment/retrieval/dense_stage.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/dense/model_io.hpp"
#include "claimrag/dense/search.hpp"
#include "claimrag/dense/train.hpp"
#include "claimrag/dense/vocabulary.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/meta.hpp"
#include "claimrag/experiment/retrieval/stats_stage.hpp"

namespace claimrag::experiment {
namespace {

std::vector<std::string> document_ids(const dataset::Corpus& corpus) {
  std::vector<std::string> ids;
  ids.reserve(corpus.documents.size());
  for (const auto& document : corpus.documents) ids.push_back(document.id);
  return ids;
}

}  // namespace

DenseIndex index_dense(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                       const ExperimentConfig& config) {
  const auto corpus = dataset::load_corpus(beir_folder / "corpus.jsonl");
  const auto qrels = dataset::load_split(beir_folder, config.data.train_split);
  const auto queries = dataset::queries_of_split(dataset::load_queries(beir_folder / "queries.jsonl"), qrels,
                                                 (beir_folder / "qrels" / (config.data.train_split + ".tsv")).string());
  std::vector<std::string> query_texts;
  std::vector<dense::TrainingPair> pairs;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    query_texts.push_back(queries[q].text);
    for (const auto& [doc_id, grade] : qrels.judgments.at(queries[q].id)) {
      if (grade <= 0) continue;
      const std::int64_t position = corpus.find(doc_id);
      if (position < 0) continue;  // warned about below: no document to pair the claim with
      pairs.push_back({static_cast<std::int32_t>(q), static_cast<std::int32_t>(position)});
    }
  }
  warn_missing_documents(dataset::judged_documents_missing(qrels, corpus),
                         beir_folder / "qrels" / (config.data.train_split + ".tsv"), beir_folder / "corpus.jsonl");
  const auto texts = corpus.full_texts();
  std::vector<std::string> vocabulary_texts = texts;
  vocabulary_texts.insert(vocabulary_texts.end(), query_texts.begin(), query_texts.end());
  const auto vocabulary = dense::Vocabulary::build(vocabulary_texts);
  std::vector<std::vector<std::int32_t>> queries_encoded, documents;
  auto trained = dense::fit(static_cast<std::int32_t>(vocabulary.size()), queries_encoded, documents, pairs, config.dense, [&] {
    documents = vocabulary.encode_all(texts);
    queries_encoded = vocabulary.encode_all(query_texts);
  });
  const nn::SafetensorsMetadata extra{{"corpus_checksum", corpus.checksum}};
  // The model, the corpus it encoded and the meta file that describes them are only meaningful
  // together: replaced together or not at all.
  io::AtomicFileSet files;
  dense::save_model(files.stage(out_folder / kDenseModelFile), trained.model, vocabulary, extra);
  auto matrix = trained.model.encode(documents, dense::Tower::document);
  dense::save_document_matrix(files.stage(out_folder / kDenseDocumentsFile), matrix,
                              dense::model_fingerprint(trained.model, vocabulary), extra);
  write_meta(out_folder, config,
             {{"stage", "index"},
              {"method", "dense"},
              {"corpus", {{"file", (beir_folder / "corpus.jsonl").string()}, {"checksum", corpus.checksum}}},
              {"training_pairs", pairs.size()},
              {"vocabulary_size", vocabulary.size()},
              {"epoch_losses", trained.epoch_losses}},
             &files);
  files.commit();
  spdlog::info("dense model: {} tokens, {} pairs, final loss {:.4f} -> {}", vocabulary.size(), pairs.size(),
               trained.epoch_losses.empty() ? 0.0 : trained.epoch_losses.back(), out_folder.string());
  return {vocabulary, std::move(trained.model), std::move(matrix), document_ids(corpus)};
}

DenseIndex load_dense_index(const std::filesystem::path& beir_folder, const std::filesystem::path& index_folder,
                            const ExperimentConfig& config) {
  const auto corpus = dataset::load_corpus(beir_folder / "corpus.jsonl");
  const auto model_path = index_folder / kDenseModelFile;
  auto loaded = dense::load_model(model_path, config.dense);
  const auto trained_on = loaded.metadata.find("corpus_checksum");
  if (trained_on == loaded.metadata.end() || trained_on->second != corpus.checksum) {
    throw DataError(model_path.string(), "was trained on another corpus than " + (beir_folder / "corpus.jsonl").string() +
                                             ": run claimrag index --method dense again");
  }
  auto matrix = dense::load_document_matrix(index_folder / kDenseDocumentsFile,
                                            dense::model_fingerprint(loaded.model, loaded.vocabulary),
                                            static_cast<Eigen::Index>(corpus.documents.size()));
  return {std::move(loaded.vocabulary), std::move(loaded.model), std::move(matrix), document_ids(corpus)};
}

run::Run retrieve_dense(const DenseIndex& index, const std::vector<dataset::Query>& queries, std::size_t k) {
  std::vector<std::string> texts;
  for (const auto& query : queries) texts.push_back(query.text);
  const auto encoded = index.model.encode(index.vocabulary.encode_all(texts), dense::Tower::query);
  return run_from_hits(index.document_ids, queries, dense::search_top_k(encoded, index.documents, k), "dense");
}

run::Run run_from_hits(const dataset::Corpus& corpus, const std::vector<dataset::Query>& queries,
                       const std::vector<std::vector<dense::ScoredDocument>>& hits, const std::string& tag) {
  return run_from_hits(document_ids(corpus), queries, hits, tag);
}

run::Run run_from_hits(const std::vector<std::string>& document_ids, const std::vector<dataset::Query>& queries,
                       const std::vector<std::vector<dense::ScoredDocument>>& hits, const std::string& tag) {
  run::Run run;
  run.tag = tag;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    run::Ranking ranking{queries[q].id, {}};
    for (const auto& hit : hits[q]) {
      ranking.documents.push_back({document_ids[static_cast<std::size_t>(hit.document)], static_cast<double>(hit.score)});
    }
    run.add(std::move(ranking));
  }
  return run;
}

}  // namespace claimrag::experiment
