#include <spdlog/spdlog.h>

#include <cstdio>

#include "claimrag/abstention/command.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_compare_abstention_command(CLI::App& root) {
  struct Options {
    std::string test, train, config;
    abstention::CompareAbstentionRequest request;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand("compare-abstention",
                                      "Compare ways of deciding when to refuse, on the same claims: risk at each coverage, "
                                      "with bootstrap intervals and p-values");
  command->add_option("--test", options->test, "Claims table to compare on (claim_id, answered, unsafe, one column per strategy)")
      ->required();
  command->add_option("--train", options->train, "Claims table whose thresholds give the operating points (same strategy columns)");
  command->add_option("--out", options->request.out, "Folder for abstention.tsv, abstention_curves.tsv, "
                                                     "abstention_operating_points.tsv, abstention.json")
      ->required();
  command->add_option("--reference", options->request.reference,
                      "Strategy the others are compared against (default: the config's, bm25_top1, when the table has it, "
                      "else the table's first strategy)");
  command->add_option("--resamples", options->request.resamples, "Bootstrap resamples over claims (default: the config's, 1000)")
      ->check(number_in(1, 1e6));
  add_config_option(*command, options->config);
  command->callback([options] {
    auto request = options->request;
    request.test = options->test;
    if (!options->train.empty()) request.train = options->train;
    abstention::CompareAbstentionOutcome outcome;
    with_outputs({.inputs = {options->test, options->train, options->config}, .folders = {request.out}},
                 [&] { outcome = abstention::compare_abstention_command(request, config_from(options->config).abstention); });
    if (outcome.reference_defaulted_to_first) {
      spdlog::info("compare-abstention: the reference is {}, the table's first strategy (--reference NAME picks another)",
                   outcome.settings.reference);
    }
    std::fputs(abstention::comparison_summary(outcome).c_str(), stdout);
    const auto& comparison = outcome.comparison;
    spdlog::info("compare-abstention: {} claims ({} answered, {} unsafe if all answered), {} strategies -> {}", comparison.claims,
                 comparison.answered, comparison.unsafe, comparison.rows.size() - 1, request.out.string());
  });
}

}  // namespace claimrag::cli
