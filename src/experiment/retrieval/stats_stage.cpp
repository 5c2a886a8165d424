#include "claimrag/experiment/retrieval/stats_stage.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::experiment {

void warn_missing_documents(const std::vector<std::string>& missing, const std::filesystem::path& qrels_file,
                            const std::filesystem::path& corpus_file) {
  if (missing.empty()) return;
  constexpr std::size_t kShown = 5;
  std::string first;
  for (std::size_t i = 0; i < std::min(kShown, missing.size()); ++i) first += (i == 0 ? "" : ", ") + missing[i];
  spdlog::warn("{}: {} judged document(s) missing from {} (first: {}): they cannot be retrieved and count as misses",
               qrels_file.string(), missing.size(), corpus_file.string(), first);
}

dataset::DatasetStatistics dataset_statistics(const std::filesystem::path& beir_folder) {
  const auto corpus = dataset::load_corpus(beir_folder / "corpus.jsonl");
  const auto queries = dataset::load_queries(beir_folder / "queries.jsonl");
  std::map<std::string, dataset::Qrels> splits;
  for (const auto& name : dataset::available_splits(beir_folder)) {
    splits.emplace(name, dataset::load_split(beir_folder, name));
  }
  auto statistics = dataset::compute_statistics(corpus, queries, splits);
  for (const auto& split : statistics.splits) {
    warn_missing_documents(split.missing_documents, beir_folder / "qrels" / (split.name + ".tsv"), beir_folder / "corpus.jsonl");
  }
  return statistics;
}

io::Table table1(const dataset::DatasetStatistics& statistics) {
  io::Table table{{"statistic", "value"}, {}};
  table.rows.push_back({"corpus documents", std::to_string(statistics.documents)});
  for (const auto& split : statistics.splits) table.rows.push_back({split.name + " claims", std::to_string(split.queries)});
  for (const auto& split : statistics.splits) table.rows.push_back({split.name + " pairs", std::to_string(split.pairs)});
  table.rows.push_back({"mean document length (tokens)", io::fixed(statistics.mean_document_tokens, 2)});
  for (const auto& split : statistics.splits) {
    table.rows.push_back({"mean " + split.name + " claim length (tokens)", io::fixed(split.mean_query_tokens, 2)});
  }
  return table;
}

void write_token_lengths(const dataset::DatasetStatistics& statistics, const std::filesystem::path& out_folder) {
  io::Table table{{"kind", "tokens"}, {}};
  for (const std::size_t tokens : statistics.document_tokens) table.rows.push_back({"document", std::to_string(tokens)});
  for (const auto& split : statistics.splits) {
    for (const std::size_t tokens : split.query_tokens) table.rows.push_back({split.name, std::to_string(tokens)});
  }
  io::write_tsv(table, out_folder / "token_lengths.tsv");
}

void write_table1(const dataset::DatasetStatistics& statistics, const std::filesystem::path& out_folder) {
  nlohmann::json splits = nlohmann::json::object();
  for (const auto& split : statistics.splits) {
    splits[split.name] = {{"claims", split.queries}, {"pairs", split.pairs}, {"mean_claim_tokens", split.mean_query_tokens}};
  }
  const nlohmann::json json = {{"corpus_documents", statistics.documents},
                               {"mean_document_tokens", statistics.mean_document_tokens},
                               {"splits", splits}};
  io::write_tsv(table1(statistics), out_folder / "table1.tsv");
  io::write_file_atomically(out_folder / "table1.json", io::json_text(json, (out_folder / "table1.json").string(), 2) + "\n");
}

}  // namespace claimrag::experiment
