#pragma once
// The fusion stage as the command line and the reproduction run it: read run files, fuse them
// with reciprocal rank fusion.

#include <filesystem>
#include <vector>

#include "claimrag/fusion/rrf.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::experiment {

/// Reads every file of `run_files` (at least two) and fuses them; errors name the file.
run::Run fuse_run_files(const std::vector<std::filesystem::path>& run_files, const fusion::RrfOptions& options);

}  // namespace claimrag::experiment
