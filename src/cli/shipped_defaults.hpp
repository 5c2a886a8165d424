#pragma once
// Options whose default is a file claimrag ships (a prompt, the probes).

#include <CLI/CLI.hpp>
#include <filesystem>

#include "claimrag/experiment/shipped_files.hpp"

namespace claimrag::cli {

/// A shipped file an option defaults to is read from the shipped folder
/// (experiment/shipped_files.hpp), so that the command reads the same file from any working
/// folder; a path the user gave is kept as typed. Called in the subcommand's callback.
inline void default_to_shipped(const CLI::Option& option, std::filesystem::path& value) {
  if (option.count() == 0) value = experiment::shipped_file(value);
}

}  // namespace claimrag::cli
