#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"
#include "claimrag/experiment/paper.hpp"
#include "claimrag/io/atomic_file.hpp"

#include <nlohmann/json.hpp>
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

TEST(Config, ReadsSectionsAndKeepsDefaultsForAbsentKeys) {
  TempFolder folder;
  const auto config = experiment::load_config(
      folder.write("c.json", R"({"name": "x", "seed": 7, "bm25": {"k1": 0.9}, "data": {"beir": "somewhere"}})"));
  EXPECT_EQ(config.name, "x");
  EXPECT_EQ(config.seed, 7u);
  EXPECT_EQ(config.bm25.parameters.k1, 0.9);
  EXPECT_EQ(config.bm25.parameters.b, 0.75);
  EXPECT_EQ(config.bm25.depth, 200u);
  EXPECT_EQ(config.data.beir, (folder.path() / "somewhere").string());  // relative to the file's folder
  EXPECT_EQ(config.checksum.size(), 16u);
}

// A configuration means the same thing from any working directory: its relative paths are read
// from its own folder, absolute ones kept, "..", normalised away.
TEST(Config, RelativePathsAreResolvedAgainstTheConfigurationsFolder) {
  TempFolder folder;
  const auto config = experiment::load_config(folder.write(
      "configs/c.json",
      R"({"data": {"beir": "../data/beir", "original": "/abs/original"}, "expected": "e.json", "paper": "paper/p.json"})"));
  EXPECT_EQ(config.data.beir, (folder.path() / "data/beir").string());
  EXPECT_EQ(config.data.original, "/abs/original");
  EXPECT_EQ(config.expected, (folder.path() / "configs/e.json").string());
  EXPECT_EQ(config.paper, (folder.path() / "configs/paper/p.json").string());
  EXPECT_EQ(experiment::load_config(folder.write("d.json", "{}")).data.original, "");  // no SciFact layout by default
}

// Freezing writes what check_all reads: checking the same results passes, one perturbed number
// fails (in either direction), and a tolerance lets a difference within it pass.
TEST(Expectations, FrozenResultsCheckOkAndAPerturbedNumberFails) {
  TempFolder folder;
  const experiment::Results results{{"bm25", {{"ndcg@10", 0.6622130253683588}, {"recall@100", 0.8825555555555555}}},
                                    {"table1", {{"corpus_documents", 5183.0}}}};
  const auto file = folder.path() / "frozen.json";
  experiment::freeze_expectations(results, file, 0.0, "test");
  experiment::validate_expectations(file);
  EXPECT_EQ(experiment::check_all(file, results).failures(), 0u);
  EXPECT_EQ(experiment::check_all(file, results).lines.size(), 3u);
  auto perturbed = results;
  perturbed["bm25"]["ndcg@10"] += 1e-12;
  EXPECT_EQ(experiment::check_all(file, perturbed).failures(), 1u);
  perturbed["bm25"]["ndcg@10"] -= 2e-12;
  EXPECT_EQ(experiment::check_all(file, perturbed).failures(), 1u);
  experiment::freeze_expectations(results, file, 1e-9, "test");
  EXPECT_EQ(experiment::check_all(file, perturbed).failures(), 0u);
}

TEST(Expectations, AMissingOrMalformedFileIsRefusedBeforeUse) {
  TempFolder folder;
  expect_error<DataError>([&] { experiment::validate_expectations(folder.path() / "absent.json"); }, "absent.json");
  expect_error<DataError>([&] { experiment::validate_expectations(folder.write("a.json", "{")); }, "a.json: not valid JSON");
  expect_error<DataError>([&] { experiment::validate_expectations(folder.write("b.json", R"({"sections": {"s": {"m": {"value": 1}}}})")); },
                          "b.json: s.m: \"tolerance\" must be a number");
}

// The reranker tags its run "hybrid+rerank"; results and expectations call it "hybrid_rerank".
TEST(Expectations, ARunTagMapsToOneSectionName) {
  EXPECT_EQ(experiment::section_for_tag("hybrid+rerank"), "hybrid_rerank");
  EXPECT_EQ(experiment::section_for_tag("bm25"), "bm25");
}

TEST(Config, UnknownKeysAndWrongTypesNameTheKey) {
  TempFolder folder;
  expect_error<UsageError>([&] { experiment::load_config(folder.write("a.json", R"({"bm25": {"k3": 1}})")); },
                           "a.json: \"bm25.k3\" is not a known key");
  expect_error<UsageError>([&] { experiment::load_config(folder.write("b.json", R"({"bm25": {"k1": "high"}})")); },
                           "b.json: \"bm25.k1\" must be a number");
  expect_error<UsageError>([&] { experiment::load_config(folder.write("c.json", R"({"seeds": 1})")); },
                           "\"seeds\" is not a known key");
  expect_error<UsageError>([&] { experiment::load_config(folder.write("d.json", R"({"bm25": 3})")); },
                           "\"bm25\" must be a JSON object");
  expect_error<UsageError>([&] { experiment::load_config(folder.write("e.json", R"({"bm25": {"depth": 0}})")); },
                           "bm25.depth");
  expect_error<UsageError>([&] { experiment::load_config(folder.write("f.json", "{not json")); }, "f.json: not valid JSON");
}

TEST(Config, TheShippedConfigLoads) {
  const auto config = experiment::load_config(std::string(CLAIMRAG_SOURCE_DIR) + "/configs/scifact.json");
  EXPECT_EQ(config.seed, 42u);
  EXPECT_EQ(config.bm25.parameters.k1, 1.2);
  EXPECT_EQ(config.bm25.parameters.b, 0.75);
  EXPECT_EQ(config.data.beir, std::string(CLAIMRAG_SOURCE_DIR) + "/data/scifact/beir");
  EXPECT_EQ(config.expected, std::string(CLAIMRAG_SOURCE_DIR) + "/tests/regression/scifact.expected.json");
}

// The paper's numbers live in configs/paper/scifact.json; the expectations file repeats those it
// checks against, and the two must agree number for number.
TEST(Paper, TheSciFactPaperFileAgreesWithTheExpectations) {
  const auto config = experiment::load_config(std::string(CLAIMRAG_SOURCE_DIR) + "/configs/scifact.json");
  const auto paper = experiment::load_paper_numbers(config.paper);
  EXPECT_NE(paper.source.find("Claim-Aware Scientific RAG"), std::string::npos);
  EXPECT_EQ(paper.section("evidence")->at("token_f1@2"), 0.190277);  // Table 7
  const auto expected = nlohmann::json::parse(io::read_file(config.expected));
  std::size_t compared = 0;
  for (const auto& [section, metrics] : expected["sections"].items()) {
    for (const auto& [metric, entry] : metrics.items()) {
      if (!entry.contains("paper")) continue;
      ASSERT_NE(paper.section(section), nullptr) << section;
      EXPECT_EQ(paper.section(section)->at(metric), entry["paper"].get<double>()) << section << " " << metric;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 40u);  // every "paper" entry of the expectations file
}

TEST(Paper, NoFileMeansNoNumbersAndABadFileIsRefused) {
  TempFolder folder;
  EXPECT_TRUE(experiment::load_paper_numbers("").empty());
  expect_error<DataError>([&] { experiment::load_paper_numbers(folder.write("p.json", R"({"sections": {}})")); },
                          "p.json: needs a \"source\"");
  expect_error<DataError>(
      [&] { experiment::load_paper_numbers(folder.write("q.json", R"({"source": "s", "sections": {"a": {"m": "x"}}})")); },
      "q.json: a.m is not a number");
}

TEST(Expectations, ChecksValuesAndPaperNumbersInBothDirections) {
  TempFolder folder;
  const auto file = folder.write("e.json", R"({"sections": {"bm25": {
      "ndcg@10": {"value": 0.5, "tolerance": 0.01},
      "recall@100": {"value": 0.8, "tolerance": 0.0, "paper": 0.8, "paper_tolerance": 5e-7}}}})");
  auto report = experiment::check_section(file, "bm25", {{"ndcg@10", 0.505}, {"recall@100", 0.8}});
  EXPECT_EQ(report.failures(), 0u);
  report = experiment::check_section(file, "bm25", {{"ndcg@10", 0.52}, {"recall@100", 0.8}});  // improved: still a FAIL
  EXPECT_EQ(report.failures(), 1u);
  report = experiment::check_section(file, "bm25", {{"ndcg@10", 0.48}, {"recall@100", 0.8000001}});
  EXPECT_EQ(report.failures(), 2u);
  report = experiment::check_section(file, "bm25", {{"ndcg@10", 0.5}});  // recall@100 not computed
  EXPECT_EQ(report.failures(), 1u);
  EXPECT_NE(report.lines[1].message.find("FAIL bm25 recall@100 was not computed"), std::string::npos);
  EXPECT_EQ(experiment::expected_metrics(file, "bm25"), (std::vector<std::string>{"ndcg@10", "recall@100"}));
  expect_error<UsageError>([&] { experiment::check_section(file, "dense", {}); }, "no section \"dense\" (known: bm25)");
}

TEST(Expectations, APaperNumberWithoutToleranceIsShownNotChecked) {
  TempFolder folder;
  const auto file = folder.write("e.json", R"({"sections": {"evidence": {"f1": {"value": 0.3, "tolerance": 1e-6, "paper": 0.02}}}})");
  const auto report = experiment::check_section(file, "evidence", {{"f1", 0.3}});
  EXPECT_EQ(report.failures(), 0u);
  EXPECT_NE(report.lines[0].message.find("paper 0.02)"), std::string::npos) << report.lines[0].message;
}
