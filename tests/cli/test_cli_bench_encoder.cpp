// scripts/bench_encoder.sh --smoke: the encoder benchmark runs end to end on a tiny shape (weights
// written without torch, claimrag timed, one table row per thread count), so the script cannot
// break unnoticed. Where torch is importable the PyTorch side runs too and must agree on the logits.

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

struct ScriptRun {
  int exit_code;
  std::string out;
  std::string err;
};

// Runs the smoke benchmark with claimrag's freshly built binary; `environment` goes before the command.
ScriptRun run_smoke(const TempFolder& folder, const std::string& environment = "") {
  const auto out = folder.path() / "stdout.txt";
  const auto err = folder.path() / "stderr.txt";
  const std::string command = "cd '" + std::string(CLAIMRAG_SOURCE_DIR) + "' && " + environment + " CLAIMRAG_BIN='" +
                              CLAIMRAG_BINARY + "' bash scripts/bench_encoder.sh --smoke > '" + out.string() + "' 2> '" +
                              err.string() + "' < /dev/null";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

// The cells of the table row that starts with `prefix` ("| tiny | 16 | 1 |"), trimmed; empty when absent.
std::vector<std::string> row_cells(const std::string& table, const std::string& prefix) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream parts(line.substr(1));
    for (std::string cell; std::getline(parts, cell, '|');) {
      const auto first = cell.find_first_not_of(' ');
      const auto last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    return cells;
  }
  return {};
}

// Columns of a row: shape, tokens, threads, claimrag seq/s, before, PyTorch seq/s, ratio, claimrag
// GFLOP/s, PyTorch GFLOP/s, peak, RSS, weights MB, max logit diff, load average.
constexpr std::size_t kColumns = 14;
constexpr std::size_t kOurs = 3;
constexpr std::size_t kTheirs = 5;
constexpr std::size_t kRatio = 6;
constexpr std::size_t kLogitDiff = 12;

void expect_rows(const ScriptRun& run, bool with_torch) {
  ASSERT_EQ(run.exit_code, 0) << run.out << "\n" << run.err;
  for (const std::string threads : {"1", "2"}) {
    const auto cells = row_cells(run.out, "| tiny | 16 | " + threads + " |");
    ASSERT_EQ(cells.size(), kColumns) << "no complete row for " << threads << " threads in:\n" << run.out;
    EXPECT_GT(std::stod(cells[kOurs]), 0.0) << run.out;
    if (with_torch) {
      EXPECT_GT(std::stod(cells[kTheirs]), 0.0) << run.out;
      EXPECT_GT(std::stod(cells[kRatio]), 0.0) << run.out;
      EXPECT_LE(std::stod(cells[kLogitDiff]), 1e-4) << "claimrag's and PyTorch's logits differ:\n" << run.out;
    } else {
      for (const std::size_t column : {kTheirs, kRatio, kLogitDiff}) EXPECT_EQ(cells[column], "not run (no torch)") << run.out;
    }
  }
}

}  // namespace

TEST(CliBenchEncoder, SmokeRunWithoutTorchTimesClaimragAlone) {
  TempFolder folder;
  // A torch module that fails to import stands in for a machine without python3-torch.
  folder.write("no-torch/torch.py", "raise ImportError('no torch here')\n");
  expect_rows(run_smoke(folder, "PYTHONPATH='" + (folder.path() / "no-torch").string() + "'"), false);
}

TEST(CliBenchEncoder, SmokeRunComparesWithPyTorchWhereInstalled) {
  TempFolder folder;
  const bool with_torch = std::system("/usr/bin/python3 -c 'import torch' > /dev/null 2>&1") == 0;
  expect_rows(run_smoke(folder), with_torch);
}
