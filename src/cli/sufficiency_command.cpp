#include "claimrag/sufficiency/command.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_sufficiency_command(CLI::App& root) {
  auto options = std::make_shared<sufficiency::SufficiencyCommand>();
  auto* command = root.add_subcommand(
      "sufficiency", "Judge whether each evidence set supports, refutes or is insufficient for its claim, and answer or abstain");
  command->add_option("--examples", options->examples, "JSON Lines {\"id\", \"claim\", \"evidence\": [passage, ...]}")->required();
  command->add_option("--model", options->model, "The pair verifier (a file of claimrag verify --save-model)");
  command->add_option("--scores", options->scores, "Pair scores instead of a verifier: JSON Lines {\"id\", \"pairs\": [[s, r, n], ...]}");
  command->add_option("--aggregator", options->aggregator, "SURE's aggregator (models/sufficiency_aggregator.json of a reproduction)")
      ->required();
  command->add_option("--out", options->out, "JSON Lines: label, probabilities, score, decision and features per example")->required();
  add_threads_option(*command);
  command->callback([options] { sufficiency::run_sufficiency(*options); });
}

void add_sufficiency_bench_command(CLI::App& root) {
  auto options = std::make_shared<sufficiency::SufficiencyBenchCommand>();
  auto config = std::make_shared<std::string>();
  auto* command = root.add_subcommand("sufficiency-bench", "Build the evidence-sufficiency benchmark from SciFact's original layout");
  command->add_option("--original", options->original, "SciFact's original layout (corpus.jsonl, claims_train/dev.jsonl)")->required();
  command->add_option("--out", options->out, "The benchmark, JSON Lines")->required();
  add_config_option(*command, *config);
  command->callback([options, config] {
    const auto experiment = config->empty() ? experiment::default_config() : experiment::load_config(*config);
    options->options = experiment.sufficiency.benchmark;
    sufficiency::run_sufficiency_bench(*options);
  });
}

}  // namespace claimrag::cli
