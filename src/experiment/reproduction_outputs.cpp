#include "claimrag/experiment/reproduction_outputs.hpp"

#include "claimrag/experiment/meta.hpp"
#include "claimrag/experiment/paper_tables.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::experiment {

nlohmann::json results_to_json(const Reproduction& reproduction) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& [section, values] : reproduction.results) {
    for (const auto& [metric, value] : values) metrics[section][metric] = value;
  }
  nlohmann::json timings = nlohmann::json::array();
  for (const auto& timing : reproduction.timings) timings.push_back({{"stage", timing.stage}, {"seconds", timing.seconds}});
  return {{"metrics", metrics}, {"timings", timings}};
}

void write_reproduction_outputs(const Reproduction& reproduction, const ExperimentConfig& config, const PaperNumbers& paper,
                                const std::filesystem::path& folder) {
  const auto& results = reproduction.results;
  if (results.contains("evidence") || results.contains("evidence_gold")) write_table7(results, paper, folder / "tables");
  write_ranking_tables(results, {"bm25", "dense", "hybrid", "hybrid_rerank", "lexical_ranker"}, folder / "tables");
  write_table9(reproduction.timings, folder / "tables");
  io::write_file_atomically(folder / "results.json", io::json_text(results_to_json(reproduction), (folder / "results.json").string(), 2) + "\n");
  nlohmann::json extra{{"stage", "reproduce"}, {"data", config.data.beir}};
  if (const auto& spec = config.verification.checkpoint.verifier; !spec.empty()) {
    extra["checkpoint_verifier"] = verifier_record({spec, {}, {}, {}, {}}, config);
  }
  write_meta(folder, config, extra);
  write_report(reproduction, config, paper, folder / "REPORT.md");
}

}  // namespace claimrag::experiment
