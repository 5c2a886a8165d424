#pragma once
// Frozen expected metrics and the check against them, in both directions: a metric that moved
// up is reported like one that moved down, since an unexplained improvement needs explaining too.
//
// File format (tests/regression/*.expected.json):
//   { "description": "...",
//     "sections": { "<system>": { "<metric>": { "value": v, "tolerance": t,
//                                               "paper": p, "paper_tolerance": pt }, ... } } }
// "paper" is optional and shown beside ours; with "paper_tolerance" the computed value must also
// lie within paper_tolerance of the paper's number. "why" (optional) explains a difference.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace claimrag::experiment {

struct CheckLine {
  std::string section;
  std::string metric;
  bool ok;
  std::string message;  ///< "OK bm25 ndcg@10 0.662213 (expected 0.662213 ± 1e-09)"
};

struct CheckReport {
  std::vector<CheckLine> lines;
  [[nodiscard]] std::size_t failures() const;
};

/// Checks `computed` (metric name -> value) against section `section` of `expected_file`.
/// Every expected metric must be computed; a missing section is a UsageError.
CheckReport check_section(const std::filesystem::path& expected_file, const std::string& section,
                          const std::map<std::string, double>& computed);

/// Computed metrics of several systems: section -> metric -> value.
using Results = std::map<std::string, std::map<std::string, double>>;

/// Checks every section of `expected_file` against `results`; a section absent from `results`
/// fails every one of its metrics.
CheckReport check_all(const std::filesystem::path& expected_file, const Results& results);

/// The "metrics" object of a reproduction's results.json.
Results read_results(const std::filesystem::path& results_json);

/// The section a run's metrics are filed and checked under: its tag, with every '+' replaced by
/// '_' ("hybrid+rerank", the reranker's tag for a reranked hybrid run, is "hybrid_rerank"), so
/// that one name serves results.json, the expectations file and the run file's name.
std::string section_for_tag(const std::string& tag);

/// Checks, before a run that will need it, that `expected_file` exists, parses and has the
/// format above (a number "value" and "tolerance" per metric); DataError naming the file if not.
void validate_expectations(const std::filesystem::path& expected_file);

/// Writes `results` as an expectations file in the format above, every metric with its value and
/// `tolerance` (>= 0), so that `check_all` on the same results passes. Written atomically.
void freeze_expectations(const Results& results, const std::filesystem::path& expected_file, double tolerance,
                         const std::string& description);

/// The metric names section `section` of `expected_file` expects.
std::vector<std::string> expected_metrics(const std::filesystem::path& expected_file,
                                          const std::string& section);

}  // namespace claimrag::experiment
