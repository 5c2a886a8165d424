#include "claimrag/experiment/verification/calibration_stage.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "commands.hpp"
#include "judge_flags.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_calibrate_command(CLI::App& root) {
  struct Options {
    experiment::CalibrateRequest request;
    std::string pairs, out, verifier, config;
    CheckpointReading reading;
    JudgeFlags judge;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "calibrate", "Choose a verifier's threshold on your own labelled pairs by claim-grouped cross-validation, and write it as a rule (--config) for verify, ground, sufficiency and interrogate");
  command->add_option("--pairs", options->pairs,
                      "JSON Lines of labelled pairs: {\"claim\", \"evidence\"|\"doc\", \"label\"[, \"id\", \"dataset\", \"claim_id\"]}")
      ->required();
  command->add_option("--out", options->out,
                      "The rule: a partial configuration (its report beside it, NAME.calibration.json)")
      ->required();
  add_verifier_option(*command, options->verifier);
  add_checkpoint_reading_options(*command, options->reading);
  command->add_option("--folds", options->request.folds, "Cross-validation folds over the claims")
      ->capture_default_str()
      ->check(number_in(2, 100));
  add_judge_flags(*command, options->judge);
  add_config_option(*command, options->config);
  add_threads_option(*command);
  add_precision_option(*command);
  command->callback([options] {
    auto request = options->request;
    request.pairs = options->pairs;
    request.out = options->out;
    request.source.spec = options->verifier;
    set_served_source(request.source, options->judge, options->out);
    check_checkpoint_reading(options->reading, options->verifier);
    with_outputs({.inputs = {options->pairs, options->config, verifier_input(request.source), request.source.served.replay},
                  .files = {options->out, experiment::calibration_report_path(options->out), request.source.served.record}},
                 [&] { experiment::run_calibrate(request, config_from(options->config, options->reading)); });
  });
}

}  // namespace claimrag::cli
