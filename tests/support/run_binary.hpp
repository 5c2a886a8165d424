#pragma once
// Runs the claimrag binary as a user would and captures its exit code and output.

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace claimrag::testing {

struct Outcome {
  int exit_code;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Every line of a JSON Lines file, parsed.
inline std::vector<nlohmann::json> json_lines(const std::filesystem::path& file) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(slurp(file));
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

/// Runs `claimrag <arguments>` from `working_directory` (the source folder unless given);
/// `scratch` holds the captured streams. Every command-line test runs the binary through this.
inline Outcome run_claimrag(const std::string& arguments, const std::filesystem::path& scratch,
                            const std::filesystem::path& working_directory = CLAIMRAG_SOURCE_DIR) {
  const auto out = scratch / "stdout.txt";
  const auto err = scratch / "stderr.txt";
  const std::string command = "cd '" + working_directory.string() + "' && '" + CLAIMRAG_BINARY + "' " +
                              arguments + " > '" + out.string() + "' 2> '" + err.string() + "' < /dev/null";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

}  // namespace claimrag::testing
