#include "claimrag/experiment/reproduce.hpp"

#include "claimrag/error.hpp"
#include "claimrag/experiment/output_folder.hpp"
#include "claimrag/experiment/pipeline.hpp"
#include "claimrag/experiment/reproduction_outputs.hpp"
#include "claimrag/experiment/stage.hpp"
#include "claimrag/experiment/stage_timer.hpp"

namespace claimrag::experiment {

Reproduction reproduce(const ExperimentConfig& config, const ReproduceOptions& options) {
  // Everything that can be refused is refused before the first stage runs.
  const auto stages = plan_stages(config);
  if (!config.expected.empty()) validate_expectations(config.expected);
  const OutputFolder output = prepare_output_folder(options.out, options.force);
  const std::filesystem::path& work = output.partial;
  Reproduction reproduction;
  StageTimer timer;
  StageContext context(config, work, reproduction.results, timer);
  run_stages(stages, context);
  reproduction.timings = timer.timings();
  if (!config.expected.empty()) reproduction.check = check_all(config.expected, reproduction.results);
  write_reproduction_outputs(reproduction, config, context.paper, work);
  if (!options.freeze.empty()) {
    freeze_expectations(reproduction.results, options.freeze, options.freeze_tolerance,
                        "Frozen by claimrag reproduce --freeze from " + config.source);
  }
  commit_output_folder(output);
  return reproduction;
}

}  // namespace claimrag::experiment
