#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/retrieval/dense_stage.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_index_command(CLI::App& root) {
  struct Options {
    std::string data;
    std::string method;
    std::string out;
    std::string config;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "index", "Build a BM25 index of a corpus, or train a dense retriever on it");
  add_data_option(*command, options->data);
  add_method_option(*command, options->method);
  command->add_option("--out", options->out, "Index folder to write")->required();
  add_config_option(*command, options->config);
  add_threads_option(*command);
  command->callback([options] {
    with_outputs({.inputs = {options->data, options->config}, .folders = {options->out}}, [&] {
      const auto config = config_from(options->config);
      if (options->method == "bm25") {
        experiment::index_bm25(options->data, options->out, config);
      } else {
        experiment::index_dense(options->data, options->out, config);
      }
    });
  });
}

}  // namespace claimrag::cli
