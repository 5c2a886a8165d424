#pragma once
// A paper's published numbers, kept as data (configs/paper/<dataset>.json) rather than in code:
//   { "source": "which paper, which tables", "description": "...",
//     "sections": { "<section>": { "<metric>": number, ... }, ... } }
// Sections and metrics are named as in a reproduction's results.json. A configuration names its
// paper file with "paper"; a dataset without one has no paper rows anywhere.

#include <filesystem>
#include <map>
#include <string>

#include "claimrag/experiment/expectations.hpp"

namespace claimrag::experiment {

struct PaperNumbers {
  std::string source;  ///< the paper and tables the numbers come from
  Results sections;    ///< section -> metric -> the paper's value
  /// The paper's numbers of `section`, or nullptr when it reports none.
  [[nodiscard]] const std::map<std::string, double>* section(const std::string& name) const;
  [[nodiscard]] bool empty() const { return sections.empty(); }
};

/// Reads a paper file; an empty path gives no numbers. A missing file, invalid JSON, a missing
/// "source" or a value that is not a number is a DataError naming the file.
PaperNumbers load_paper_numbers(const std::filesystem::path& path);

}  // namespace claimrag::experiment
