#include "claimrag/experiment/retrieval/bm25_shards.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_bm25_statistics_command(CLI::App& root) {
  struct Options {
    std::string data;
    std::string out;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "bm25-statistics",
      "Count what BM25 scores read of a whole corpus (documents, lengths, document frequencies), for the shards of "
      "`index --method bm25 --shard K/N --statistics FILE`");
  add_data_option(*command, options->data);
  command->add_option("--out", options->out, "Statistics file to write")->required();
  command->callback([options] {
    with_outputs({.inputs = {options->data}, .files = {options->out}},
                 [&] { experiment::write_bm25_statistics(options->data, options->out); });
  });
}

}  // namespace claimrag::cli
