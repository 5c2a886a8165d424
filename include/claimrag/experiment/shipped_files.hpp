#pragma once
// The files claimrag ships (configs/: the SciFact configuration, its probes, papers and prompts)
// and where they are found, so that a command gives the same result from any working folder.
//
// The shipped configuration's bytes are compiled into the binary (CMake embeds configs/scifact.json
// at build time): a subcommand without --config uses exactly them. Its relative paths, and the
// default prompt and probe files, are taken from the shipped folder:
//   1. <folder of the executable>/../share/claimrag, when it holds configs/scifact.json (an
//      installed claimrag: `cmake --install build --prefix P` puts the binary in P/bin and the
//      files in P/share/claimrag);
//   2. else the source tree the binary was built from (a build folder's claimrag).
// SciFact for the shipped configuration: $CLAIMRAG_DATA (a folder holding beir/ and original/,
// as scripts/get-data.sh reads it) when set, else <shipped folder>/data/scifact.

#include <filesystem>
#include <string_view>

#include "claimrag/experiment/config.hpp"

namespace claimrag::experiment {

/// The bytes of configs/scifact.json as they were when the binary was built.
std::string_view shipped_config_text();

/// The source tree the binary was built from (compiled in).
std::filesystem::path build_source_folder();

/// The shipped folder (see above), absolute; empty when neither candidate holds the files.
std::filesystem::path shipped_folder();

/// `relative` (e.g. "configs/prompts/verifier_judge.txt") inside the shipped folder; `relative`
/// itself when there is no shipped folder.
std::filesystem::path shipped_file(const std::filesystem::path& relative);

/// The name a configuration read from the compiled-in bytes records as its file.
inline constexpr std::string_view kShippedConfigName = "built-in configs/scifact.json";

/// The shipped configuration: the compiled-in bytes of configs/scifact.json, its relative paths
/// taken from the shipped folder's configs/, SciFact from $CLAIMRAG_DATA when that is set. The
/// same from any working folder; default_config() (experiment/config.hpp) is it, with a warning.
ExperimentConfig shipped_config();

}  // namespace claimrag::experiment
