// Faults around writing: a full disk, a killed run's leftovers, a set of files cut in half, and
// NaN scores that must never reach a file.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/io/file_output.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/run/run.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

namespace {

// Larger than any pid the kernel hands out (pid_max is at most 2^22): a writer that is gone.
const std::string kDeadPid = "999999999";

using claimrag::testing::entries_in;

}  // namespace

TEST(DiskFull, AWriteThatFindsNoSpaceSaysSoAndNamesTheFile) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  io::FileOutput output("/dev/full", "results/metrics.json");
  output.stream() << std::string(100000, 'x');  // more than the buffer, so a write happens
  expect_error<DataError>([&] { output.finish(); }, "results/metrics.json: cannot write: no space left on device");
}

TEST(DiskFull, AnUnwritableTargetNamesTheReason) {
  TempFolder folder;
  folder.write("blocker", "a file, not a folder");
  expect_error<DataError>([&] { io::write_file_atomically(folder.path() / "blocker" / "x.txt", "x"); }, "cannot create folder");
}

TEST(StrayTemporaries, AKilledRunsTemporariesAreRemovedByTheNextWriteOfTheSameTarget) {
  TempFolder folder;
  folder.write(".run.trec.tmp." + kDeadPid + ".0", "half a run");                          // removed
  folder.write(".run.trec.tmp." + std::to_string(::getppid()) + ".3", "being written");   // a live writer
  folder.write(".other.trec.tmp." + kDeadPid + ".0", "another target's");                // not this target
  folder.write(".run.trec.tmp.notapid.0", "not claimrag's pattern");
  folder.write("run.trec.tmp." + kDeadPid + ".0", "no leading dot: not claimrag's");
  io::write_file_atomically(folder.path() / "run.trec", "q1 Q0 d1 1 1 t\n");
  EXPECT_FALSE(fs::exists(folder.path() / (".run.trec.tmp." + kDeadPid + ".0")));
  EXPECT_TRUE(fs::exists(folder.path() / (".run.trec.tmp." + std::to_string(::getppid()) + ".3")));
  EXPECT_TRUE(fs::exists(folder.path() / (".other.trec.tmp." + kDeadPid + ".0")));
  EXPECT_TRUE(fs::exists(folder.path() / ".run.trec.tmp.notapid.0"));
  EXPECT_TRUE(fs::exists(folder.path() / ("run.trec.tmp." + kDeadPid + ".0")));
}

TEST(AtomicFileSet, CommitPutsEveryFileInPlaceAndLeavesNothingElse) {
  TempFolder folder;
  {
    io::AtomicFileSet set;
    io::write_file_atomically(set.stage(folder.path() / "a.tsv"), "table\n");
    io::write_file_atomically(set.stage(folder.path() / "sub" / "a.json"), "{}\n");
    set.commit();
  }
  EXPECT_EQ(io::read_file(folder.path() / "a.tsv"), "table\n");
  EXPECT_EQ(io::read_file(folder.path() / "sub" / "a.json"), "{}\n");
  EXPECT_EQ(entries_in(folder.path()), 2u);  // a.tsv and sub/
  EXPECT_EQ(entries_in(folder.path() / "sub"), 1u);
}

TEST(AtomicFileSet, AFailureBeforeCommitLeavesEveryOldFile) {
  TempFolder folder;
  folder.write("a.tsv", "old table\n");
  folder.write("a.json", "old json\n");
  try {
    io::AtomicFileSet set;
    io::write_file_atomically(set.stage(folder.path() / "a.tsv"), "new table\n");
    set.stage(folder.path() / "a.json");
    throw DataError("no space left on device");  // the second file never gets written
  } catch (const DataError&) {
  }
  EXPECT_EQ(io::read_file(folder.path() / "a.tsv"), "old table\n");
  EXPECT_EQ(io::read_file(folder.path() / "a.json"), "old json\n");
  EXPECT_EQ(entries_in(folder.path()), 2u);
}

namespace {

// What a run killed during commit leaves: both new files staged, journals as listed, one file
// renamed already when `renamed_first`.
void leave_interrupted_commit(const TempFolder& folder, bool all_journals, bool renamed_first) {
  const fs::path a = folder.path() / "a.tsv";
  const fs::path b = folder.path() / "a.json";
  const fs::path ta = folder.path() / (".a.tsv.tmp." + kDeadPid + ".0");
  const fs::path tb = folder.path() / (".a.json.tmp." + kDeadPid + ".1");
  const fs::path ja = folder.path() / (".a.tsv.commit." + kDeadPid + ".0");
  const fs::path jb = folder.path() / (".a.json.commit." + kDeadPid + ".0");
  folder.write(ta.filename().string(), "new table\n");
  folder.write(tb.filename().string(), "new json\n");
  nlohmann::json journal = {{"files", nlohmann::json::array()}, {"journals", {ja.string(), jb.string()}}};
  journal["files"].push_back(nlohmann::json::array({ta.string(), a.string()}));
  journal["files"].push_back(nlohmann::json::array({tb.string(), b.string()}));
  folder.write(ja.filename().string(), journal.dump());
  if (all_journals) folder.write(jb.filename().string(), journal.dump());
  if (renamed_first) fs::rename(ta, a);
}

}  // namespace

TEST(AtomicFileSet, AKilledCommitIsCompletedByTheNextWriteOfAnyFileOfTheSet) {
  TempFolder folder;
  folder.write("a.tsv", "old table\n");
  folder.write("a.json", "old json\n");
  leave_interrupted_commit(folder, /*all_journals=*/true, /*renamed_first=*/true);
  io::write_file_atomically(folder.path() / "a.json.unrelated", "x");  // another target: nothing happens
  EXPECT_EQ(io::read_file(folder.path() / "a.json"), "old json\n");
  io::write_file_atomically(folder.path() / "other", "x");
  io::AtomicFileSet set;
  set.stage(folder.path() / "a.json");  // the next run writing a file of the set
  EXPECT_EQ(io::read_file(folder.path() / "a.tsv"), "new table\n");
  EXPECT_EQ(io::read_file(folder.path() / "a.json"), "new json\n");
  EXPECT_EQ(entries_in(folder.path()), 4u);  // a.tsv, a.json, a.json.unrelated, other
}

TEST(AtomicFileSet, ACommitKilledWhileWritingJournalsIsUndone) {
  TempFolder folder;
  folder.write("a.tsv", "old table\n");
  folder.write("a.json", "old json\n");
  leave_interrupted_commit(folder, /*all_journals=*/false, /*renamed_first=*/false);
  io::write_file_atomically(folder.path() / "a.tsv", "newer table\n");
  EXPECT_EQ(io::read_file(folder.path() / "a.tsv"), "newer table\n");
  EXPECT_EQ(io::read_file(folder.path() / "a.json"), "old json\n");
  EXPECT_EQ(entries_in(folder.path()), 2u);
}

TEST(NanNeverWritten, JsonWithANanOrInfinityIsRefusedNamingWhere) {
  const nlohmann::json json = {{"metrics", {{"ndcg@10", std::nan("")}}}};
  expect_error<InternalError>([&] { (void)io::json_text(json, "out.json"); }, "out.json: /metrics/ndcg@10 is nan");
  const nlohmann::json list = {{"scores", {1.0, std::numeric_limits<double>::infinity()}}};
  expect_error<InternalError>([&] { (void)io::json_text(list, "e.jsonl"); }, "/scores/1 is inf");
  EXPECT_EQ(io::json_text(nlohmann::json{{"a", 0.5}}, "ok.json"), R"({"a":0.5})");
  const nlohmann::ordered_json line = {{"claim_id", "7"}, {"score", std::nan("")}};  // evidence lines keep key order
  expect_error<InternalError>([&] { (void)io::json_text(line, "e.jsonl"); }, "e.jsonl: /score is nan");
  EXPECT_EQ(io::json_text(nlohmann::ordered_json{{"z", 1}, {"a", 2}}, "ok.jsonl"), R"({"z":1,"a":2})");
}

TEST(NanNeverWritten, ARunWithANanScoreIsRefusedAndNotWritten) {
  TempFolder folder;
  run::Run run;
  run.tag = "bm25";
  run.add({"q1", {{"d1", 2.0}, {"d2", std::nan("")}}});
  expect_error<InternalError>([&] { run::write_trec_run(run, folder.path() / "run.trec"); },
                              "the score of d2 for query q1 is nan");
  EXPECT_EQ(entries_in(folder.path()), 0u);
}
