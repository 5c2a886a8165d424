#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/experiment/retrieval/evaluate_stage.hpp"

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::experiment {

std::filesystem::path output_prefix(const std::filesystem::path& out) {
  std::filesystem::path prefix = out;
  if (prefix.extension() == ".tsv" || prefix.extension() == ".json") prefix.replace_extension();
  return prefix;
}

nlohmann::json evaluation_to_json(const metrics::Evaluation& evaluation, const std::string& run_tag,
                                  const std::string& split) {
  nlohmann::json means = nlohmann::json::object();
  for (std::size_t m = 0; m < evaluation.metrics.size(); ++m) means[evaluation.metrics[m].name()] = evaluation.mean[m];
  nlohmann::json per_query = nlohmann::json::object();
  for (std::size_t q = 0; q < evaluation.query_ids.size(); ++q) {
    nlohmann::json values = nlohmann::json::object();
    for (std::size_t m = 0; m < evaluation.metrics.size(); ++m) {
      values[evaluation.metrics[m].name()] = evaluation.per_query[q][m];
    }
    per_query[evaluation.query_ids[q]] = values;
  }
  return {{"run", run_tag},
          {"split", split},
          {"queries", evaluation.query_ids.size()},
          {"queries_missing_from_run", evaluation.queries_missing_from_run},
          {"queries_without_judgments", evaluation.queries_without_judgments},
          {"queries_without_relevant", evaluation.queries_without_relevant},
          {"metrics", means},
          {"per_query", per_query}};
}

void write_evaluation(const metrics::Evaluation& evaluation, const std::string& run_tag,
                      const std::string& split, const std::filesystem::path& out) {
  const auto prefix = output_prefix(out);
  io::Table table;
  table.columns.push_back("query_id");
  for (const auto& spec : evaluation.metrics) table.columns.push_back(spec.name());
  for (std::size_t q = 0; q < evaluation.query_ids.size(); ++q) {
    std::vector<std::string> row{evaluation.query_ids[q]};
    for (const double value : evaluation.per_query[q]) row.push_back(io::fixed(value, 6));
    table.rows.push_back(std::move(row));
  }
  std::vector<std::string> mean_row{"mean"};
  for (const double value : evaluation.mean) mean_row.push_back(io::fixed(value, 6));
  table.rows.push_back(std::move(mean_row));
  const std::string json_file = prefix.string() + ".json";
  const std::string json = io::json_text(evaluation_to_json(evaluation, run_tag, split), json_file, 2) + "\n";
  io::AtomicFileSet files;  // the table and its JSON are replaced together or not at all
  io::write_tsv(table, files.stage(prefix.string() + ".tsv"));
  io::write_file_atomically(files.stage(json_file), json);
  files.commit();
}

}  // namespace claimrag::experiment
