#include "claimrag/experiment/reproduce.hpp"

#include "claimrag/error.hpp"
#include "claimrag/experiment/pipeline.hpp"
#include "claimrag/experiment/reproduction_outputs.hpp"
#include "claimrag/experiment/stage.hpp"
#include "claimrag/experiment/stage_timer.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

void check_output_folder(const fs::path& out, bool force) {
  if (fs::exists(out / "results.json") && !force) {
    throw UsageError(out.string() + " already holds a reproduction: pass --force to replace it, or choose another --out");
  }
  if (fs::exists(out) && !fs::is_directory(out)) throw UsageError(out.string() + " exists and is not a folder");
}

}  // namespace

Reproduction reproduce(const ExperimentConfig& config, const ReproduceOptions& options) {
  // Everything that can be refused is refused before the first stage runs.
  const auto stages = plan_stages(config);
  if (!config.expected.empty()) validate_expectations(config.expected);
  check_output_folder(options.out, options.force);
  const fs::path work = fs::path(options.out.string() + ".partial");
  fs::remove_all(work);
  fs::create_directories(work);
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

  if (fs::exists(options.out)) fs::remove_all(options.out);
  fs::rename(work, options.out);
  return reproduction;
}

}  // namespace claimrag::experiment
