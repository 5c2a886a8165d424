// The output rules end to end (docs/outputs.md): no output may be an input or another output, a
// read-only file is not replaced, a device is written through and a link followed, every output is
// checked before any is written, an empty path is refused, and numeric options have ranges.
// The commands replay a recorded interrogation or fuse two runs: no data set is needed.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "support/interrogation_inputs.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;

namespace {

// One sample of each probe, recorded.
struct Interrogation : claimrag::testing::InterrogationInputs {
  Interrogation()
      : InterrogationInputs(R"({"pair_id": "p1", "probe_id": "o", "sample": 0, "text": "Yes"}
{"pair_id": "p1", "probe_id": "f", "sample": 0, "text": "No"}
)") {}
  claimrag::testing::Outcome run(const std::string& outputs) const {
    return run_claimrag(command("--samples 1 " + outputs), folder.path());
  }
};

}  // namespace

TEST(CliOutputs, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  const Interrogation f;
  const std::string pairs_before = slurp(f.pairs), recording_before = slurp(f.recording);
  auto outcome = f.run("--out " + f.pairs.string());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("is the same file as the input"), std::string::npos) << outcome.err;
  outcome = f.run("--out " + f.out.string() + " --record " + f.recording.string());
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  fs::create_symlink(f.pairs, f.folder.path() / "alias.jsonl");
  EXPECT_EQ(f.run("--out " + f.out.string() + " --claims-out " + (f.folder.path() / "alias.jsonl").string()).exit_code, 2);
  EXPECT_EQ(slurp(f.pairs), pairs_before);
  EXPECT_EQ(slurp(f.recording), recording_before);
  EXPECT_FALSE(fs::exists(f.out));
}

TEST(CliOutputs, TwoOutputsThatAreOneFileAreRefused) {
  const Interrogation f;
  const auto outcome = f.run("--out " + f.out.string() + " --record " + (f.folder.path() / "." / "out.jsonl").string());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("is the same file as the output"), std::string::npos) << outcome.err;
  EXPECT_FALSE(fs::exists(f.out));
}

TEST(CliOutputs, AnUnwritableSecondOutputLeavesTheFirstUntouched) {
  const Interrogation f;
  f.folder.write("out.jsonl", "the previous run\n");
  fs::create_directories(f.folder.path() / "d");
  for (const std::string second : {"--record ", "--claims-out "}) {
    const auto outcome = f.run("--out " + f.out.string() + " " + second + (f.folder.path() / "d").string());
    EXPECT_EQ(outcome.exit_code, 3);
    EXPECT_NE(outcome.err.find("is a folder"), std::string::npos) << outcome.err;
    EXPECT_EQ(slurp(f.out), "the previous run\n");
  }
}

TEST(CliOutputs, AllOutputsOfARunAreWrittenTogether) {
  const Interrogation f;
  const auto record = f.folder.path() / "again.jsonl", claims = f.folder.path() / "claims.jsonl";
  const auto outcome = f.run("--out " + f.out.string() + " --record " + record.string() + " --claims-out " + claims.string());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(fs::is_regular_file(f.out));
  EXPECT_EQ(claimrag::testing::json_lines(record), claimrag::testing::json_lines(f.recording));
  EXPECT_TRUE(fs::is_regular_file(claims));
  std::size_t entries = 0;  // no journal or temporary left beside them
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(f.folder.path())) ++entries;
  EXPECT_EQ(entries, 8u);  // 3 inputs, 3 outputs, stdout.txt, stderr.txt
}

TEST(CliOutputs, AReadOnlyOutputIsNotReplaced) {
  const Interrogation f;
  f.folder.write("out.jsonl", "kept\n");
  fs::permissions(f.out, fs::perms::owner_read | fs::perms::group_read);
  const auto outcome = f.run("--out " + f.out.string());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find("is read-only"), std::string::npos) << outcome.err;
  EXPECT_EQ(slurp(f.out), "kept\n");
  EXPECT_EQ(fs::status(f.out).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::group_read);
}

TEST(CliOutputs, ADeviceIsWrittenThroughAndALinkFollowed) {
  const Interrogation f;
  ASSERT_EQ(f.run("--out /dev/null").exit_code, 0);
  struct stat status {};
  ASSERT_EQ(::stat("/dev/null", &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode));
  f.folder.write("kept/real.jsonl", "old\n");
  fs::create_symlink("kept/real.jsonl", f.folder.path() / "link.jsonl");
  ASSERT_EQ(f.run("--out " + (f.folder.path() / "link.jsonl").string()).exit_code, 0);
  EXPECT_TRUE(fs::is_symlink(f.folder.path() / "link.jsonl"));
  EXPECT_NE(slurp(f.folder.path() / "kept/real.jsonl"), "old\n");
}

TEST(CliOutputs, FuseRefusesToWriteOverOneOfItsRuns) {
  claimrag::testing::TempFolder folder;
  const auto a = folder.write("a.trec", "q1 Q0 a 1 3 x\nq1 Q0 b 2 2 x\n");
  const auto b = folder.write("b.trec", "q1 Q0 b 1 9 y\nq1 Q0 a 2 8 y\n");
  const auto outcome = run_claimrag("fuse --runs " + a.string() + " " + b.string() + " --out " + b.string(), folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(slurp(b), "q1 Q0 b 1 9 y\nq1 Q0 a 2 8 y\n");
}

TEST(CliOutputs, AnEmptyPathIsRefusedBeforeAnyWork) {
  const Interrogation f;
  EXPECT_EQ(f.run("--out ''").exit_code, 2);
  EXPECT_EQ(f.run("--out " + f.out.string() + " --claims-out ''").exit_code, 2);
  EXPECT_FALSE(fs::exists(f.out));
}

TEST(CliOutputs, AnEmptyOutIsRefusedByEverySubcommand) {
  // Every subcommand that writes, with its other required flags: their files need not exist, since
  // the empty value is refused before any is read.
  claimrag::testing::TempFolder folder;
  for (const std::string command :
       {"reproduce --config configs/scifact.json", "verify --pairs p.jsonl", "predict --checkpoint c --pairs p.jsonl",
        "ground --answers a.jsonl --model m.safetensors", "sufficiency --examples e.jsonl --aggregator a.json",
        "interrogate --pairs p.jsonl --probes p.json --responder recorded:r.jsonl --samples 1", "stats --data d",
        "index --data d --method bm25", "retrieve --data d --index i --method bm25 --split test", "fuse --runs a.trec b.trec",
        "rerank --data d --index i --run r.trec --model m.safetensors", "extract-evidence --data d --run r.trec",
        "gate --data d --split test --run r.trec --signal file", "evaluate --data d --split test --run r.trec",
        "compare-abstention --test t.tsv", "sufficiency-bench --original o"}) {
    const auto outcome = run_claimrag(command + " --out ''", folder.path());
    EXPECT_EQ(outcome.exit_code, 2) << command << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find("--out: an empty value is not allowed"), std::string::npos) << command << "\n" << outcome.err;
  }
}

TEST(CliOutputs, ADiskFullErrorNamesTheOutput) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const Interrogation f;
  for (const std::string& outputs : {std::string("--out /dev/full"), "--out " + f.out.string() + " --record /dev/full"}) {
    const auto outcome = f.run(outputs);
    EXPECT_EQ(outcome.exit_code, 3) << outputs << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find("/dev/full: cannot write: no space left on device"), std::string::npos) << outcome.err;
  }
}

TEST(CliOutputs, NumericOptionsHaveCheckedRanges) {
  const Interrogation f;
  const std::string out = " --out " + f.out.string();
  for (const std::string option : {"--retries -1", "--samples -1", "--k -1", "--temperature -1", "--temperature nan",
                                   "--alpha nan", "--concurrency 0", "--timeout inf"}) {
    const auto outcome = run_claimrag(f.command(option + out), f.folder.path());
    EXPECT_EQ(outcome.exit_code, 2) << option << "\n" << outcome.err;
  }
  EXPECT_FALSE(fs::exists(f.out));
}

TEST(CliOutputs, CompareAbstentionRefusesAFolderItDidNotWrite) {
  claimrag::testing::TempFolder folder;
  const auto test = folder.write("test.tsv",
                                 "claim_id\tanswered\tunsafe\tgate\tjudge\n1\t1\t0\t1\t0.9\n2\t1\t1\t5\t0.2\n3\t1\t0\t2\t0.8\n"
                                 "4\t1\t1\t4\t0.1\n5\t1\t1\t3\t0.3\n");
  const auto out = folder.path() / "cmp";
  const std::string command = "compare-abstention --config configs/scifact.json --reference gate --resamples 50 --test " +
                              test.string() + " --out " + out.string();
  ASSERT_EQ(run_claimrag(command, folder.path()).exit_code, 0);
  ASSERT_EQ(run_claimrag(command, folder.path()).exit_code, 0);  // its own files: replaced
  folder.write("cmp/notes.txt", "the user's");
  const auto outcome = run_claimrag(command, folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("was not written by compare-abstention (it holds notes.txt)"), std::string::npos) << outcome.err;
  EXPECT_EQ(slurp(out / "notes.txt"), "the user's");
}

TEST(CliOutputs, AnIndexAndItsMetaFileAreReplacedTogether) {
  // meta.json cannot be written (a folder stands there): the index files written before it must
  // not be replaced either, or the folder would hold a new index described by an old meta file.
  claimrag::testing::TempFolder folder;
  for (const std::string method : {"bm25", "dense"}) {
    const auto index = folder.path() / method;
    const auto kept = folder.write(method + "/" + (method == "bm25" ? "bm25.index" : "dense.safetensors"), "the previous index");
    fs::create_directories(index / "meta.json");
    const auto outcome = run_claimrag("index --data data/fixtures/tiny-beir --method " + method + " --out " + index.string(), folder.path());
    EXPECT_EQ(outcome.exit_code, 3) << method << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find("meta.json"), std::string::npos) << outcome.err;
    EXPECT_EQ(slurp(kept), "the previous index") << method;
    EXPECT_FALSE(fs::exists(index / "dense-documents.safetensors")) << method;
  }
}
