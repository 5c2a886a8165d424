#include <spdlog/spdlog.h>

#include <cstdio>

#include "claimrag/abstention/comparison.hpp"
#include "claimrag/io/table.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_compare_abstention_command(CLI::App& root) {
  struct Options {
    std::string test, train, out, reference, config;
    std::size_t resamples = 0;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand("compare-abstention", "Compare abstention strategies on the same claims: risk-coverage, "
                                                            "bootstrap intervals, paired differences, operating points");
  command->add_option("--test", options->test, "Claims table to compare on (claim_id, answered, unsafe, one column per strategy)")
      ->required();
  command->add_option("--train", options->train, "Claims table whose thresholds give the operating points (same strategy columns)");
  command->add_option("--out", options->out, "Folder for abstention.tsv, abstention_curves.tsv, abstention_operating_points.tsv, "
                                             "abstention.json")
      ->required();
  command->add_option("--reference", options->reference, "Strategy the others are compared against (default: the config's, bm25_top1)");
  command->add_option("--resamples", options->resamples, "Bootstrap resamples over claims (default: the config's, 1000)")
      ->check(number_in(1, 1e6));
  add_config_option(*command, options->config);
  command->callback([options] {
    const auto config = config_from(options->config);
    abstention::ComparisonSettings settings = config.abstention;
    if (!options->reference.empty()) settings.reference = options->reference;
    if (options->resamples > 0) settings.resamples = options->resamples;
    std::optional<std::filesystem::path> train;
    if (!options->train.empty()) train = options->train;
    abstention::AbstentionComparison comparison;
    with_outputs({.inputs = {options->test, options->train, options->config}, .folders = {options->out}},
                 [&] { comparison = abstention::run_compare_abstention(options->test, train, settings, options->out); });
    io::Table summary{{"strategy", "aurc", "risk_at_30", "risk_at_30_lower_95", "risk_at_30_upper_95",
                       "risk_at_30_p_value_vs_" + settings.reference},
                      {}};
    for (const auto& row : comparison.rows) {
      summary.rows.push_back({row.name, io::fixed(row.aurc.estimate, 4), io::fixed(row.risk_at_30.estimate, 4),
                              io::fixed(row.risk_at_30.lower, 4), io::fixed(row.risk_at_30.upper, 4),
                              io::fixed(row.risk_at_30_p_value, 4)});
    }
    std::fputs(io::to_tsv(summary).c_str(), stdout);
    spdlog::info("compare-abstention: {} claims ({} answered, {} unsafe if all answered), {} strategies -> {}", comparison.claims,
                 comparison.answered, comparison.unsafe, comparison.rows.size() - 1, options->out);
  });
}

}  // namespace claimrag::cli
