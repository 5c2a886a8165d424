#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"
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
  EXPECT_EQ(config.data.beir, "somewhere");
  EXPECT_EQ(config.checksum.size(), 16u);
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
