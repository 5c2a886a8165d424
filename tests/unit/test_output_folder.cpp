#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/experiment/output_folder.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

namespace {

// A folder as a finished reproduction leaves it, holding `content` in result.txt.
void write_reproduction(const TempFolder& folder, const std::string& name, const std::string& content,
                        const std::string& state = "finished", long pid = 0) {
  folder.write(name + "/result.txt", content);
  folder.write(name + "/" + experiment::kReproductionMarker,
               "{\"state\": \"" + state + "\", \"pid\": " + std::to_string(pid) + "}\n");
}

std::string result_in(const fs::path& folder) { return io::read_file(folder / "result.txt"); }

// What reproduce() does around its stages.
void reproduce_into(const fs::path& out, bool force, const std::string& content) {
  const auto output = experiment::prepare_output_folder(out, force);
  io::write_file_atomically(output.partial / "result.txt", content);
  experiment::commit_output_folder(output);
}

}  // namespace

TEST(OutputFolder, AFolderClaimragDidNotWriteIsNeverDeletedEvenWithForce) {
  TempFolder folder;
  folder.write("mine/thesis.tex", "years of work");
  for (const bool force : {false, true}) {
    expect_error<UsageError>([&] { experiment::prepare_output_folder(folder.path() / "mine", force); },
                             "was not written by claimrag");
  }
  EXPECT_EQ(io::read_file(folder.path() / "mine" / "thesis.tex"), "years of work");
  EXPECT_FALSE(fs::exists(folder.path() / "mine.partial"));
}

TEST(OutputFolder, AnEmptyOrMissingFolderReceivesTheReproduction) {
  TempFolder folder;
  fs::create_directories(folder.path() / "empty");
  reproduce_into(folder.path() / "empty", false, "new");
  reproduce_into(folder.path() / "missing", false, "new");
  EXPECT_EQ(result_in(folder.path() / "empty"), "new");
  EXPECT_EQ(result_in(folder.path() / "missing"), "new");
  EXPECT_TRUE(fs::exists(folder.path() / "missing" / experiment::kReproductionMarker));
  EXPECT_FALSE(fs::exists(folder.path() / "missing.partial"));
}

TEST(OutputFolder, AFinishedReproductionIsReplacedOnlyWithForce) {
  TempFolder folder;
  write_reproduction(folder, "done", "old");
  expect_error<UsageError>([&] { experiment::prepare_output_folder(folder.path() / "done", false); },
                           "already holds a reproduction: pass --force");
  EXPECT_EQ(result_in(folder.path() / "done"), "old");
  reproduce_into(folder.path() / "done", true, "new");
  EXPECT_EQ(result_in(folder.path() / "done"), "new");
  EXPECT_FALSE(fs::exists(folder.path() / "done.old"));
}

TEST(OutputFolder, AnUnfinishedReproductionIsNotReplacedEvenWithForce) {
  TempFolder folder;
  write_reproduction(folder, "half", "old", "partial");
  expect_error<UsageError>([&] { experiment::prepare_output_folder(folder.path() / "half", true); },
                           "unfinished reproduction");
  EXPECT_EQ(result_in(folder.path() / "half"), "old");
}

TEST(OutputFolder, ATrailingSlashNamesTheSameFolder) {
  TempFolder folder;
  const auto output = experiment::prepare_output_folder(folder.path().string() + "/out/", false);
  EXPECT_EQ(output.out, folder.path() / "out");
  EXPECT_EQ(output.partial, folder.path() / "out.partial");
  io::write_file_atomically(output.partial / "result.txt", "new");
  experiment::commit_output_folder(output);
  EXPECT_EQ(result_in(folder.path() / "out"), "new");
}

TEST(OutputFolder, APartialFolderLeftByAKilledRunIsCleared) {
  TempFolder folder;
  // pid 0 never names a live process: the run that wrote it is gone.
  write_reproduction(folder, "out.partial", "half-written", "partial", 0);
  reproduce_into(folder.path() / "out", false, "new");
  EXPECT_EQ(result_in(folder.path() / "out"), "new");
}

TEST(OutputFolder, APartialFolderOfALiveRunIsLeftAlone) {
  TempFolder folder;
  write_reproduction(folder, "out.partial", "being written", "partial", static_cast<long>(::getppid()));
  expect_error<UsageError>([&] { experiment::prepare_output_folder(folder.path() / "out", false); },
                           "is being written by another claimrag run");
  EXPECT_EQ(result_in(folder.path() / "out.partial"), "being written");
}

TEST(OutputFolder, AForeignFolderWhereTheOldOrPartialOneWouldGoIsRefused) {
  TempFolder folder;
  folder.write("out.partial/notes.txt", "mine");
  expect_error<UsageError>([&] { experiment::prepare_output_folder(folder.path() / "out", false); },
                           "was not written by claimrag");
  EXPECT_EQ(io::read_file(folder.path() / "out.partial" / "notes.txt"), "mine");
  folder.write("x.old/notes.txt", "mine");
  write_reproduction(folder, "x", "old");
  expect_error<UsageError>([&] { experiment::prepare_output_folder(folder.path() / "x", true); },
                           "was not written by claimrag");
  EXPECT_EQ(io::read_file(folder.path() / "x.old" / "notes.txt"), "mine");
  EXPECT_EQ(result_in(folder.path() / "x"), "old");
}

TEST(OutputFolder, AMarkerWithFieldsOfAnotherTypeIsRefusedAndItsFolderKept) {
  TempFolder folder;
  for (const std::string marker : {R"({"state": 1, "pid": 0})", R"({"state": "partial", "pid": "12"})"}) {
    folder.write("out.partial/result.txt", "kept");
    folder.write("out.partial/" + std::string(experiment::kReproductionMarker), marker);
    expect_error<UsageError>([&] { experiment::prepare_output_folder(folder.path() / "out", true); }, "marker");
    EXPECT_EQ(result_in(folder.path() / "out.partial"), "kept");
  }
}

// The three moments a kill can interrupt the swap, and what the next run finds.
TEST(OutputFolder, KilledAfterMovingTheOldAsideRestoresTheOldWhenTheNewIsUnfinished) {
  TempFolder folder;
  write_reproduction(folder, "out.old", "old");
  write_reproduction(folder, "out.partial", "half", "partial", 0);
  experiment::recover_interrupted_swap(folder.path() / "out");
  EXPECT_EQ(result_in(folder.path() / "out"), "old");
  EXPECT_FALSE(fs::exists(folder.path() / "out.old"));
}

TEST(OutputFolder, KilledAfterMovingTheOldAsideCompletesTheSwapWhenTheNewIsFinished) {
  TempFolder folder;
  write_reproduction(folder, "out.old", "old");
  write_reproduction(folder, "out.partial", "new", "finished", 0);
  experiment::recover_interrupted_swap(folder.path() / "out");
  EXPECT_EQ(result_in(folder.path() / "out"), "new");
  EXPECT_FALSE(fs::exists(folder.path() / "out.old"));
  EXPECT_FALSE(fs::exists(folder.path() / "out.partial"));
}

TEST(OutputFolder, KilledBeforeRemovingTheOldKeepsTheNew) {
  TempFolder folder;
  write_reproduction(folder, "out.old", "old");
  write_reproduction(folder, "out", "new");
  expect_error<UsageError>([&] { experiment::prepare_output_folder(folder.path() / "out", false); },
                           "already holds a reproduction");
  EXPECT_EQ(result_in(folder.path() / "out"), "new");
  EXPECT_FALSE(fs::exists(folder.path() / "out.old"));
}
