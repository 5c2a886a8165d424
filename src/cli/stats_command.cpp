#include <spdlog/spdlog.h>

#include "claimrag/experiment/retrieval/stats_stage.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_stats_command(CLI::App& root) {
  struct Options {
    std::string data;
    std::string out;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "stats", "Count a dataset's documents, claims and token lengths (the paper's Table 1)");
  add_data_option(*command, options->data);
  command->add_option("--out", options->out, "Output folder for table1.tsv and table1.json")->required();
  command->callback([options] {
    const std::filesystem::path folder = options->out;
    with_outputs({.inputs = {options->data}, .files = {folder / "table1.tsv", folder / "table1.json"}}, [&] {
      experiment::write_table1(experiment::dataset_statistics(options->data), folder);
    });
    spdlog::info("Table 1 -> {}/table1.tsv", options->out);
  });
}

}  // namespace claimrag::cli
