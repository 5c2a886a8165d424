// The defaults a subcommand uses without --config are the shipped configuration's: the bytes
// compiled into the binary are configs/scifact.json's, and reading them gives what reading the
// file gives, its paths taken from the same folder.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/shipped_files.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace {

using namespace claimrag;
namespace fs = std::filesystem;
const fs::path kSource = CLAIMRAG_SOURCE_DIR;

TEST(ShippedConfig, TheCompiledInBytesAreTheShippedFilesBytes) {
  EXPECT_EQ(std::string(experiment::shipped_config_text()), io::read_file(kSource / "configs/scifact.json"));
}

TEST(ShippedConfig, ItsFilesAreFoundInTheSourceTreeOfABuildFolder) {
  EXPECT_EQ(fs::canonical(experiment::shipped_folder()), fs::canonical(kSource));
  EXPECT_EQ(experiment::shipped_file("configs/probes.json"), experiment::shipped_folder() / "configs/probes.json");
  EXPECT_EQ(experiment::shipped_file("/elsewhere/probes.json"), fs::path("/elsewhere/probes.json"));
}

TEST(ShippedConfig, ReadingTheCompiledInBytesGivesWhatReadingTheFileGives) {
  ::unsetenv("CLAIMRAG_DATA");
  const auto shipped = experiment::shipped_config();
  const auto file = experiment::load_config(kSource / "configs/scifact.json");
  EXPECT_EQ(shipped.as_json, file.as_json);
  EXPECT_EQ(shipped.checksum, file.checksum);
  EXPECT_EQ(shipped.source, std::string(experiment::kShippedConfigName));
  // The values `ground` and the gate decide with, which the struct's own defaults do not hold.
  EXPECT_EQ(shipped.grounding.support_threshold, 0.17);
  EXPECT_EQ(shipped.grounding.conflict_threshold, 0.05);
  EXPECT_EQ(shipped.grounding.contradict_ratio, 0.85);
  EXPECT_TRUE(shipped.grounding.verdict_gates_support);
  EXPECT_EQ(shipped.gate.compared_signals, file.gate.compared_signals);
  // Paths: the same files, from wherever the test runs.
  for (const auto& [a, b] : {std::pair{shipped.data.beir, file.data.beir}, std::pair{shipped.data.original, file.data.original},
                             std::pair{shipped.expected, file.expected}, std::pair{shipped.paper, file.paper},
                             std::pair{shipped.interrogation.probes, file.interrogation.probes}}) {
    EXPECT_EQ(fs::weakly_canonical(a), fs::weakly_canonical(b));
  }
}

TEST(ShippedConfig, ClaimragDataNamesTheSciFactFolder) {
  ::setenv("CLAIMRAG_DATA", "/somewhere/scifact", 1);
  const auto config = experiment::shipped_config();
  ::unsetenv("CLAIMRAG_DATA");
  EXPECT_EQ(config.data.beir, "/somewhere/scifact/beir");
  EXPECT_EQ(config.data.original, "/somewhere/scifact/original");
}

}  // namespace
