#include <spdlog/spdlog.h>

#include "claimrag/experiment/evidence/evidence_stage.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_extract_evidence_command(CLI::App& root) {
  struct Options {
    experiment::ExtractEvidenceRequest request;
    std::string data, run, out, model, save_model, original, config;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "extract-evidence", "Pick the two sentences of the top documents that best back each claim");
  add_data_option(*command, options->data);
  command->add_option("--run", options->run, "TREC run whose top documents give the candidate sentences")->required();
  command->add_option("--out", options->out, "JSON Lines to write (one claim a line); meta beside it")->required();
  command->add_option("--split", options->request.split, "Split whose judged claims get evidence (default: test)");
  command->add_option("--model", options->model, "Saved verifier to use instead of training one");
  command->add_option("--save-model", options->save_model, "Where to save the trained verifier");
  command->add_option("--rationales", options->request.rationales, "Training positives (default: the config's)")
      ->check(CLI::IsMember({"gold", "pseudo"}));
  command->add_option("--original", options->original, "SciFact release layout for gold rationales (default: the config's)");
  add_config_option(*command, options->config);
  add_threads_option(*command);
  command->callback([options] {
    auto request = options->request;
    request.data = options->data;
    request.run = options->run;
    request.out = options->out;
    request.model = options->model;
    request.save_model = options->save_model;
    request.original = options->original;
    request.log_progress = spdlog::default_logger()->should_log(spdlog::level::info);  // off under --quiet
    std::filesystem::path meta = request.out;  // the selections' meta file is written beside them
    meta.replace_extension(".meta.json");
    with_outputs({.inputs = {options->data, options->run, options->model, options->original, options->config},
                  .files = {options->out, meta, options->save_model}},
                 [&] { experiment::run_extract_evidence(request, config_from(options->config)); });
  });
}

}  // namespace claimrag::cli
