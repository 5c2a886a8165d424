#pragma once
// `claimrag reproduce`: the whole paper in one process, stage after stage, with the same library
// calls the subcommands make. Everything is written into `<out>.partial` and swapped into `<out>`
// at the end (output_folder.hpp), so an interrupted run leaves no folder that looks finished.

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"

namespace claimrag::experiment {

struct ReproduceOptions {
  std::filesystem::path out;
  bool force = false;  ///< replace an existing reproduction in `out`
  std::filesystem::path freeze;   ///< when set: write the results here as an expectations file
  double freeze_tolerance = 0;    ///< the tolerance every frozen metric gets
};

struct StageTiming {
  std::string stage;
  double seconds = 0;
};

struct Reproduction {
  Results results;                   ///< every number, by section (system or table)
  std::vector<StageTiming> timings;  ///< Table 9
  CheckReport check;                 ///< against config.expected, when set
};

/// Runs the stages the configuration chooses (experiment/pipeline.hpp) and writes the tables,
/// results.json, meta.json and REPORT.md (experiment/reproduction_outputs.hpp). Before any stage
/// runs: refuses (UsageError) a bad stage list, and (DataError) an expectations file that is
/// missing or malformed. `out` is prepared and committed by output_folder.hpp: a folder claimrag
/// did not write is refused (UsageError), a finished reproduction is replaced only with `force`.
Reproduction reproduce(const ExperimentConfig& config, const ReproduceOptions& options);

}  // namespace claimrag::experiment
