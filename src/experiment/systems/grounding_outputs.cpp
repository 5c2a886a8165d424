#include "claimrag/experiment/systems/grounding_outputs.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"

namespace claimrag::experiment {
namespace {

std::string metric(const Results& results, const std::string& section, const std::string& name, int decimals) {
  const auto found = results.find(section);
  if (found == results.end() || !found->second.contains(name)) return "-";
  return io::fixed(found->second.at(name), decimals);
}

}  // namespace

void write_benchmark_files(const grounding::Benchmark& benchmark, std::span<const std::size_t> sample,
                           const std::filesystem::path& folder, const std::string& name) {
  io::AtomicFile answers(folder / (name + "_answers.jsonl"));
  io::AtomicFile gold(folder / (name + "_gold.jsonl"));
  for (std::size_t a = 0; a < benchmark.answers.size(); ++a) {
    const auto& answer = benchmark.answers[a];
    nlohmann::ordered_json line{{"id", answer.id}, {"answer", answer.answer}, {"context", answer.context_doc_ids}};
    answers.stream() << line.dump() << '\n';
    auto claims = nlohmann::ordered_json::array();
    for (const auto& claim : answer.claims) {
      claims.push_back({{"claim_id", claim.claim_id}, {"text", claim.text}, {"gold", verification::label_name(claim.gold)}});
    }
    const bool in_sample = std::binary_search(sample.begin(), sample.end(), a);
    nlohmann::ordered_json gold_line{
        {"id", answer.id}, {"in_sample", in_sample}, {"gold_documents", answer.gold_documents}, {"claims", std::move(claims)}};
    gold.stream() << gold_line.dump() << '\n';
  }
  answers.commit();
  gold.commit();
}

void write_grounding_table(const Results& results, const PaperNumbers& paper, const std::filesystem::path& path) {
  io::Table table{{"method", "source", "support_rate", "conflict_rate", "partial_hallucinations", "verifier_support_rate",
                   "verifier_conflict_rate", "verifier_partial_hallucinations", "full_support_rate", "full_conflict_rate",
                   "full_partial_hallucination_rate", "full_verifier_partial_hallucination_rate", "full_precision",
                   "full_recall", "full_over_refusal_rate"},
                  {}};
  for (const auto method : grounding::kMethods) {
    const std::string name(grounding::method_name(method));
    const std::string sample = "grounding_sample_" + name;
    const std::string full = "grounding_" + name;
    table.rows.push_back({name, "claimrag (SciFact dev, gold labels; verifier_* by the verifier's own)",
                          metric(results, sample, "support_rate", 4), metric(results, sample, "conflict_rate", 4),
                          metric(results, sample, "partial_hallucinations", 0), metric(results, sample, "verifier_support_rate", 4),
                          metric(results, sample, "verifier_conflict_rate", 4),
                          metric(results, sample, "verifier_partial_hallucinations", 0), metric(results, full, "support_rate", 4),
                          metric(results, full, "conflict_rate", 4), metric(results, full, "partial_hallucination_rate", 4),
                          metric(results, full, "verifier_partial_hallucination_rate", 4), metric(results, full, "precision", 4),
                          metric(results, full, "recall", 4), metric(results, full, "over_refusal_rate", 4)});
  }
  for (const auto& section : paper.sections) {
    const auto& numbers = section.second;
    const auto value = [&](const std::string& key, int decimals) {
      return numbers.contains(key) ? io::fixed(numbers.at(key), decimals) : std::string("-");
    };
    std::vector<std::string> row{section.first, "seed paper (ASQA/ALCE sample100, labelled by its own NLI filter)",
                                 value("support_rate", 4), value("conflict_rate", 4), value("partial_hallucinations", 0)};
    row.resize(table.columns.size(), "-");
    table.rows.push_back(std::move(row));
  }
  io::write_tsv(table, path);
}

void write_pr_table(std::span<const PrCurve> curves, const std::filesystem::path& path) {
  io::Table table{{"split", "method", "threshold", "value", "precision", "recall", "conflict_rate", "claims_kept",
                   "partial_hallucination_rate"},
                  {}};
  for (const auto& curve : curves) {
    for (std::size_t i = 0; i < curve.values.size(); ++i) {
      const auto& m = curve.metrics[i];
      table.rows.push_back({curve.split, curve.method, curve.threshold, io::fixed(curve.values[i], 2), io::fixed(m.at("precision"), 6),
                            io::fixed(m.at("recall"), 6), io::fixed(m.at("conflict_rate"), 6), io::fixed(m.at("claims_kept"), 0),
                            io::fixed(m.at("partial_hallucination_rate"), 6)});
    }
  }
  io::write_tsv(table, path);
}

}  // namespace claimrag::experiment
