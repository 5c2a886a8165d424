// The rules every output follows (io/output_target.hpp, io/output_plan.hpp): no output may be an
// input or another output, a read-only file is not replaced, a device or FIFO is written through,
// a link to a file replaces the file, every output is checked before any is written, the outputs
// of one command are committed together, and two commits into one folder never interleave.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/io/output_plan.hpp"
#include "claimrag/io/output_target.hpp"
#include "claimrag/io/temporary_names.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

namespace {

using claimrag::testing::entries_in;

const std::string kGoneWriterPid = "999999999";  // above any pid_max: a writer that is gone

std::string contents_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}


}  // namespace

TEST(OutputPlanConflicts, AnOutputThatIsAnInputIsRefusedHoweverItIsSpelled) {
  TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", "input\n");
  fs::create_hard_link(pairs, folder.path() / "hard.jsonl");
  fs::create_symlink(pairs, folder.path() / "soft.jsonl");
  for (const fs::path& out : {pairs, folder.path() / "." / "pairs.jsonl", folder.path() / "hard.jsonl",
                              folder.path() / "soft.jsonl"}) {
    expect_error<UsageError>([&] { io::OutputPlan plan({.inputs = {pairs}, .files = {out}}); },
                             "this output is the same file as the input");
  }
  EXPECT_EQ(contents_of(pairs), "input\n");
}

TEST(OutputPlanConflicts, TwoOutputsThatAreOneFileAreRefusedEvenBeforeTheyExist) {
  TempFolder folder;
  expect_error<UsageError>(
      [&] {
        io::OutputPlan plan({.files = {folder.path() / "new" / "out.jsonl", folder.path() / "new" / ".." / "new" / "out.jsonl"}});
      },
      "this output is the same file as the output");
  EXPECT_FALSE(fs::exists(folder.path() / "new"));  // nothing created by the check
}

TEST(OutputPlanConflicts, DistinctFilesAndSharedDevicesAreAccepted) {
  TempFolder folder;
  const auto input = folder.write("in.jsonl", "x\n");
  io::OutputPlan plan({.inputs = {input, "/dev/null"}, .files = {folder.path() / "a", folder.path() / "b", "/dev/null"}});
  plan.commit();
}

TEST(OutputTargetRules, ARelativePathUnderFoldersYetToBeMadeIsAccepted) {
  // `reproduce --out runs/scifact` in a fresh clone: neither runs/ nor runs/scifact exists yet,
  // and the path is relative, so the search for an existing folder must end at the working one.
  TempFolder folder;
  const fs::path before = fs::current_path();
  fs::current_path(folder.path());
  std::string error;
  try {
    EXPECT_EQ(io::resolve_output("runs/scifact/results.json").path, fs::path("runs/scifact/results.json"));
    EXPECT_EQ(io::resolve_output("results.json").path, fs::path("results.json"));
    io::check_output_folder("runs/scifact");
  } catch (const std::exception& e) {
    error = e.what();
  }
  fs::current_path(before);
  EXPECT_EQ(error, "");
  EXPECT_EQ(entries_in(folder.path()), 0u);  // nothing created by the checks
}

TEST(OutputTargetRules, AReadOnlyFileIsNotReplaced) {
  TempFolder folder;
  const auto kept = folder.write("kept.jsonl", "the user's\n");
  fs::permissions(kept, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  expect_error<DataError>([&] { io::write_file_atomically(kept, "new\n"); }, "kept.jsonl: is read-only");
  expect_error<DataError>([&] { io::OutputPlan plan({.files = {kept}}); }, "is read-only");
  EXPECT_EQ(contents_of(kept), "the user's\n");
  EXPECT_EQ(fs::status(kept).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  EXPECT_EQ(entries_in(folder.path()), 1u);
}

TEST(OutputTargetRules, ARelativeOutputInFoldersThatDoNotExistYetIsWrittenWithItsFolders) {
  TempFolder folder;
  const fs::path before = fs::current_path();
  fs::current_path(folder.path());  // each test runs in its own process (ctest): restored below anyway
  EXPECT_NO_THROW((void)io::resolve_output("new/run.trec"));
  EXPECT_NO_THROW((void)io::resolve_output("new/deeper/run.trec"));
  EXPECT_NO_THROW(io::OutputPlan({.files = {"new/run.trec"}, .folders = {"other/index"}}).commit());
  io::write_file_atomically("new/deeper/run.trec", "q1 Q0 d1 1 1 x\n");
  fs::current_path(before);
  EXPECT_EQ(contents_of(folder.path() / "new/deeper/run.trec"), "q1 Q0 d1 1 1 x\n");
  folder.write("file", "");
  expect_error<DataError>([&] { (void)io::resolve_output(folder.path() / "file/run.trec"); }, "is not a folder");
}

TEST(OutputPlanCommit, AnAbandonedSetRemovesTheFoldersItCreated) {
  TempFolder folder;
  folder.write("kept/other.txt", "the user's");
  {
    io::AtomicFileSet set;
    io::write_file_atomically(set.stage(folder.path() / "new/deeper/a.txt"), "a");
    io::write_file_atomically(set.stage(folder.path() / "kept/b.txt"), "b");
  }  // not committed: as when the work throws
  EXPECT_FALSE(fs::exists(folder.path() / "new"));
  EXPECT_EQ(contents_of(folder.path() / "kept/other.txt"), "the user's");
  EXPECT_FALSE(fs::exists(folder.path() / "kept/b.txt"));
}

TEST(OutputTargetRules, ACharacterDeviceIsWrittenThroughNotReplaced) {
  io::write_file_atomically("/dev/null", "discarded\n");
  struct stat status {};
  ASSERT_EQ(::stat("/dev/null", &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode));
  io::AtomicFileSet set;
  EXPECT_EQ(set.stage("/dev/null"), fs::path("/dev/null"));
  io::write_file_atomically(set.stage("/dev/null"), "also discarded\n");
  set.commit();
  ASSERT_EQ(::stat("/dev/null", &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode));
}

TEST(OutputTargetRules, AFifoIsWrittenThroughToItsReader) {
  TempFolder folder;
  const auto fifo = folder.path() / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = contents_of(fifo); });
  io::write_file_atomically(fifo, "through the pipe\n");
  reader.join();
  EXPECT_EQ(received, "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(entries_in(folder.path()), 1u);
}

TEST(OutputTargetRules, ALinkToAFileReplacesTheFileAndStaysALink) {
  TempFolder folder;
  const auto real = folder.write("data/real.jsonl", "old\n");
  fs::create_symlink("data/real.jsonl", folder.path() / "link.jsonl");
  io::write_file_atomically(folder.path() / "link.jsonl", "new\n");
  EXPECT_TRUE(fs::is_symlink(folder.path() / "link.jsonl"));
  EXPECT_EQ(contents_of(real), "new\n");
}

TEST(OutputTargetRules, AFolderWhereAFileGoesIsRefusedByName) {
  TempFolder folder;
  fs::create_directories(folder.path() / "d");
  expect_error<DataError>([&] { io::write_file_atomically(folder.path() / "d", "x"); }, "d: is a folder, not a file");
}

TEST(OutputPlanChecks, EveryOutputIsCheckedBeforeAnyIsWritten) {
  TempFolder folder;
  const auto first = folder.write("out.jsonl", "old\n");
  fs::create_directories(folder.path() / "record");
  expect_error<DataError>([&] { io::OutputPlan plan({.files = {first, folder.path() / "record"}}); }, "is a folder");
  EXPECT_EQ(contents_of(first), "old\n");
}

TEST(OutputPlanCommit, DeclaredOutputsAreReplacedTogetherOnCommit) {
  TempFolder folder;
  const auto out = folder.write("out.jsonl", "old out\n");
  const auto record = folder.write("record.jsonl", "old record\n");
  {
    io::OutputPlan plan({.files = {out, record}});
    io::write_file_atomically(out, "new out\n");
    io::AtomicFileSet set;
    io::write_file_atomically(set.stage(record), "new record\n");
    set.commit();
    EXPECT_EQ(contents_of(out), "old out\n");  // waits for the plan
    EXPECT_EQ(contents_of(record), "old record\n");
    plan.commit();
  }
  EXPECT_EQ(contents_of(out), "new out\n");
  EXPECT_EQ(contents_of(record), "new record\n");
  EXPECT_EQ(entries_in(folder.path()), 2u);
  EXPECT_EQ(io::OutputPlan::active(), nullptr);
}

TEST(OutputPlanCommit, AFailureBeforeCommitLeavesEveryOutputAsItWas) {
  TempFolder folder;
  const auto out = folder.write("out.jsonl", "old out\n");
  const auto claims = folder.path() / "claims.jsonl";
  {
    io::OutputPlan plan({.files = {out, claims}});
    io::write_file_atomically(out, "new out\n");
    io::write_file_atomically(claims, "new claims\n");
  }  // an error: destroyed without commit
  EXPECT_EQ(contents_of(out), "old out\n");
  EXPECT_FALSE(fs::exists(claims));
  EXPECT_EQ(entries_in(folder.path()), 1u);
}

TEST(OutputPlanCommit, AnOutputWrittenTwiceKeepsItsLastVersion) {
  TempFolder folder;
  const auto out = folder.path() / "out.jsonl";
  io::OutputPlan plan({.files = {out}});
  io::write_file_atomically(out, "first\n");
  io::write_file_atomically(out, "second\n");
  plan.commit();
  EXPECT_EQ(contents_of(out), "second\n");
  EXPECT_EQ(entries_in(folder.path()), 1u);
}

TEST(FolderLocking, ASecondCommitIntoTheFolderWaitsForTheFirst) {
  TempFolder folder;
  const auto out = folder.write("ev.tsv", "old\n");
  std::atomic<bool> done{false};
  std::thread writer;
  {
    const io::FolderLock held(folder.path());  // another run committing into this folder
    writer = std::thread([&] {
      io::AtomicFileSet set;
      io::write_file_atomically(set.stage(out), "new\n");
      set.commit();
      done = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_FALSE(done.load());
    EXPECT_EQ(contents_of(out), "old\n");
  }
  writer.join();
  EXPECT_TRUE(done.load());
  EXPECT_EQ(contents_of(out), "new\n");
}

TEST(StrayTemporaries, ATemporaryOfAStagedTemporaryIsRemovedByTheNextWrite) {
  TempFolder folder;
  const std::string staged = ".ev.tsv.tmp." + kGoneWriterPid + ".0";
  folder.write(staged, "staged, half written");
  folder.write("." + staged + ".tmp." + kGoneWriterPid + ".1", "its writer's temporary");
  folder.write("..ev.tsv.commit." + kGoneWriterPid + ".0.tmp." + kGoneWriterPid + ".2", "a journal's temporary");
  folder.write("." + staged + ".tmp.notapid.1", "not claimrag's pattern");
  io::write_file_atomically(folder.path() / "ev.tsv", "whole\n");
  EXPECT_EQ(entries_in(folder.path()), 2u);  // ev.tsv and the file of another pattern
  EXPECT_TRUE(fs::exists(folder.path() / ("." + staged + ".tmp.notapid.1")));
}

TEST(ReadFile, AFolderIsRefusedByName) {
  TempFolder folder;
  fs::create_directories(folder.path() / "model");
  expect_error<DataError>([&] { (void)io::read_file(folder.path() / "model"); }, "model: is a folder, not a file");
}

TEST(ReadFile, APipeIsReadAsAStream) {
  TempFolder folder;
  const auto fifo = folder.path() / "config.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << "{\"k\": 1}\n"; });
  EXPECT_EQ(io::read_file(fifo), "{\"k\": 1}\n");
  writer.join();
}

namespace {

// What a run killed while renaming its set {a.tsv, a.json} leaves: both journals, a.tsv renamed,
// a.json's temporary still beside it, and a temporary of a temporary.
void leave_killed_commit(const TempFolder& folder) {
  const fs::path tb = folder.path() / (".a.json.tmp." + kGoneWriterPid + ".1");
  const fs::path ja = folder.path() / (".a.tsv.commit." + kGoneWriterPid + ".0");
  const fs::path jb = folder.path() / (".a.json.commit." + kGoneWriterPid + ".0");
  folder.write("a.tsv", "new table\n");
  folder.write("a.json", "old json\n");
  folder.write(tb.filename().string(), "new json\n");
  folder.write("..a.json.tmp." + kGoneWriterPid + ".1.tmp." + kGoneWriterPid + ".2", "half");
  nlohmann::json journal = {{"files", nlohmann::json::array()}, {"journals", {ja.string(), jb.string()}}};
  journal["files"].push_back(nlohmann::json::array({(folder.path() / (".a.tsv.tmp." + kGoneWriterPid + ".0")).string(),
                                                    (folder.path() / "a.tsv").string()}));
  journal["files"].push_back(nlohmann::json::array({tb.string(), (folder.path() / "a.json").string()}));
  folder.write(ja.filename().string(), journal.dump());
  folder.write(jb.filename().string(), journal.dump());
}

}  // namespace

TEST(OutputPlanRecovery, AFileOutputsKilledSetIsFinishedBeforeAnyWork) {
  TempFolder folder;
  leave_killed_commit(folder);
  { io::OutputPlan plan({.inputs = {folder.path() / "missing-input"}, .files = {folder.path() / "a.json"}}); }  // fails later
  EXPECT_EQ(contents_of(folder.path() / "a.tsv"), "new table\n");
  EXPECT_EQ(contents_of(folder.path() / "a.json"), "new json\n");
  EXPECT_EQ(entries_in(folder.path()), 2u);
}

TEST(OutputPlanRecovery, AFolderOutputsKilledSetsAreFinishedBeforeAnyWork) {
  TempFolder folder;
  leave_killed_commit(folder);
  folder.write(".notes.txt.tmp.live.0", "not claimrag's pattern");
  { io::OutputPlan plan({.folders = {folder.path()}}); }
  EXPECT_EQ(contents_of(folder.path() / "a.json"), "new json\n");
  EXPECT_EQ(entries_in(folder.path()), 3u);  // a.tsv, a.json and the file of another pattern
}

TEST(OutputErrors, AWriteToAStagedTemporaryIsReportedUnderTheOutputsName) {
  TempFolder folder;
  EXPECT_EQ(io::shown_target(folder.path() / ".ev.tsv.tmp.12.0"), folder.path() / "ev.tsv");
  EXPECT_EQ(io::shown_target(folder.path() / "..ev.tsv.tmp.12.0.tmp.12.1"), folder.path() / "ev.tsv");
  EXPECT_EQ(io::shown_target(folder.path() / ".ev.tsv.tmp.x.0"), folder.path() / ".ev.tsv.tmp.x.0");
  EXPECT_EQ(io::shown_target(folder.path() / "ev.tsv"), folder.path() / "ev.tsv");
  // A staged file that cannot be opened (its folder was replaced by a file) is named as the output.
  io::AtomicFileSet set;
  const auto staged = set.stage(folder.path() / "sub" / "ev.tsv");
  fs::remove_all(folder.path() / "sub");
  folder.write("sub", "now a file");
  try {
    io::write_file_atomically(staged, "x");
    ADD_FAILURE() << "a write into a file's path succeeded";
  } catch (const DataError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find((folder.path() / "sub" / "ev.tsv").string()), std::string::npos) << message;
    EXPECT_EQ(message.find(".tmp."), std::string::npos) << message;
  }
}
