// claimrag fuse and claimrag rerank end to end on a synthetic BEIR folder: outputs and exit codes.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "../unit/rerank_fixture.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/run/run.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;

namespace {

struct CliFixture {
  claimrag::testing::TempFolder folder;  // one per test and process: CTest runs the tests in parallel
  fs::path root = folder.path();
  std::string beir = (root / "beir").string();
  std::string index = (root / "index").string();
  std::string bm25 = (root / "bm25.trec").string();
  CliFixture() {
    claimrag::test::write_synthetic_beir(root / "beir");
    EXPECT_EQ(run_claimrag("index --data " + beir + " --method bm25 --out " + index), 0);
    EXPECT_EQ(run_claimrag("retrieve --data " + beir + " --index " + index + " --method bm25 --split test --k 100 --out " + bm25), 0);
  }
  [[nodiscard]] std::string path(const std::string& name) const { return (root / name).string(); }
  /// The exit code of `claimrag --quiet <arguments>`.
  [[nodiscard]] int run_claimrag(const std::string& arguments) const {
    return claimrag::testing::run_claimrag("--quiet " + arguments, root).exit_code;
  }
};

}  // namespace

TEST(CliFuse, FusesTwoRunsAndRefusesOne) {
  const CliFixture f;
  std::ofstream(f.path("a.trec")) << "q1 Q0 a 1 3 x\nq1 Q0 b 2 2 x\nq1 Q0 c 3 1 x\n";
  std::ofstream(f.path("b.trec")) << "q1 Q0 b 1 9 y\nq1 Q0 d 2 8 y\nq1 Q0 a 3 7 y\n";
  ASSERT_EQ(f.run_claimrag("fuse --runs " + f.path("a.trec") + " " + f.path("b.trec") + " --out " + f.path("f.trec")), 0);
  const auto fused = claimrag::run::read_trec_run(f.path("f.trec"));
  EXPECT_EQ(fused.tag, "hybrid");
  ASSERT_EQ(fused.rankings[0].documents.size(), 4u);
  EXPECT_EQ(fused.rankings[0].documents[0].doc_id, "b");
  EXPECT_EQ(fused.rankings[0].documents[0].score, 1.0 / 61 + 1.0 / 62);

  ASSERT_EQ(f.run_claimrag("fuse --runs " + f.path("a.trec") + " " + f.path("b.trec") +
                     " --rrf-k 1 --depth 2 --tag mix --out " + f.path("g.trec")),
            0);
  const auto small = claimrag::run::read_trec_run(f.path("g.trec"));
  EXPECT_EQ(small.tag, "mix");
  ASSERT_EQ(small.rankings[0].documents.size(), 2u);
  EXPECT_EQ(small.rankings[0].documents[0].score, 1.0 / 2 + 1.0 / 3);

  EXPECT_EQ(f.run_claimrag("fuse --runs " + f.path("a.trec") + " --out " + f.path("h.trec")), 2);
  EXPECT_EQ(f.run_claimrag("fuse --runs " + f.path("a.trec") + " " + f.path("b.trec") + " --rrf-k -1 --out " + f.path("h.trec")), 2);
  EXPECT_EQ(f.run_claimrag("fuse --runs " + f.path("a.trec") + " " + f.path("nope.trec") + " --out " + f.path("h.trec")), 3);
  EXPECT_FALSE(fs::exists(f.path("h.trec")));
  // A query without lines in a run retrieved nothing there: it is fused from the others.
  std::ofstream(f.path("c.trec")) << "q2 Q0 a 1 3 x\n";
  ASSERT_EQ(f.run_claimrag("fuse --runs " + f.path("a.trec") + " " + f.path("c.trec") + " --out " + f.path("h.trec")), 0);
  const auto unioned = claimrag::run::read_trec_run(f.path("h.trec"));
  ASSERT_NE(unioned.find("q2"), nullptr);
  EXPECT_EQ(unioned.find("q2")->documents.size(), 1u);
  EXPECT_EQ(unioned.find("q2")->documents[0].score, 1.0 / 61);
}

TEST(CliRerank, TrainsReusesAndRefuses) {
  const CliFixture f;
  const std::string common = "rerank --data " + f.beir + " --index " + f.index + " --run " + f.bm25;
  ASSERT_EQ(f.run_claimrag(common + " --out " + f.path("r1.trec") + " --model " + f.path("m.safetensors") + " --train"), 0);
  ASSERT_EQ(f.run_claimrag(common + " --out " + f.path("r2.trec") + " --model " + f.path("m.safetensors")), 0);
  EXPECT_EQ(claimrag::io::read_file(f.path("r1.trec")), claimrag::io::read_file(f.path("r2.trec")));
  EXPECT_EQ(claimrag::run::read_trec_run(f.path("r1.trec")).tag, "bm25+rerank");

  EXPECT_EQ(f.run_claimrag(common + " --out " + f.path("r3.trec")), 2);  // no --model
  EXPECT_EQ(f.run_claimrag(common + " --out " + f.path("r3.trec") + " --model " + f.path("absent.safetensors")), 2);
  std::ofstream(f.path("junk.safetensors")) << "not a model";
  EXPECT_EQ(f.run_claimrag(common + " --out " + f.path("r3.trec") + " --model " + f.path("junk.safetensors")), 3);
  std::ofstream(f.path("config.json")) << R"({"bm25": {"k1": 0.9}})";
  EXPECT_EQ(f.run_claimrag(common + " --out " + f.path("r3.trec") + " --model " + f.path("m.safetensors") + " --config " +
                     f.path("config.json")),
            3);
  std::ofstream(f.path("typo.json")) << R"({"rerank": {"rerank_dept": 10}})";
  EXPECT_EQ(f.run_claimrag(common + " --out " + f.path("r3.trec") + " --model " + f.path("m.safetensors") + " --config " +
                     f.path("typo.json")),
            2);
  EXPECT_FALSE(fs::exists(f.path("r3.trec")));
}
