#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"

using namespace claimrag;

namespace {

experiment::ExperimentConfig load(const std::string& json) {
  const auto path = std::filesystem::temp_directory_path() / "claimrag_test_fusion_rerank_config.json";
  std::ofstream(path) << json;
  auto config = experiment::load_config(path);
  std::filesystem::remove(path);
  return config;
}

}  // namespace

TEST(FusionRerankConfig, DefaultsAreThePapers) {
  const auto config = load("{}");
  EXPECT_EQ(config.fusion.rrf_k, 60.0);
  EXPECT_EQ(config.fusion.depth, 200u);
  EXPECT_EQ(config.rerank.train_depth, 100u);
  EXPECT_EQ(config.rerank.rerank_depth, 50u);
  EXPECT_EQ(config.rerank.C, 1.0);
  EXPECT_EQ(config.rerank.class_weight, "balanced");
  EXPECT_EQ(config.rerank.max_features, 50000u);
}

TEST(FusionRerankConfig, ReadsEveryKey) {
  const auto config = load(R"({"fusion": {"rrf_k": 10.5, "depth": 100},
    "rerank": {"train_depth": 20, "rerank_depth": 30, "C": 0.5, "class_weight": "none", "max_features": 0}})");
  EXPECT_EQ(config.fusion.rrf_k, 10.5);
  EXPECT_EQ(config.fusion.depth, 100u);
  EXPECT_EQ(config.rerank.train_depth, 20u);
  EXPECT_EQ(config.rerank.rerank_depth, 30u);
  EXPECT_EQ(config.rerank.C, 0.5);
  EXPECT_EQ(config.rerank.class_weight, "none");
  EXPECT_EQ(config.rerank.max_features, 0u);
}

TEST(FusionRerankConfig, RefusesUnknownKeysAndBadValues) {
  EXPECT_THROW(load(R"({"fusion": {"k": 60}})"), UsageError);
  EXPECT_THROW(load(R"({"rerank": {"rerank_dept": 50}})"), UsageError);
  EXPECT_THROW(load(R"({"fusion": {"rrf_k": -1}})"), UsageError);
  EXPECT_THROW(load(R"({"fusion": {"depth": 0}})"), UsageError);
  EXPECT_THROW(load(R"({"fusion": {"depth": "200"}})"), UsageError);
  EXPECT_THROW(load(R"({"rerank": {"C": 0}})"), UsageError);
  EXPECT_THROW(load(R"({"rerank": {"train_depth": 0}})"), UsageError);
  EXPECT_THROW(load(R"({"rerank": {"rerank_depth": 0}})"), UsageError);
  EXPECT_THROW(load(R"({"rerank": {"class_weight": "auto"}})"), UsageError);
  EXPECT_THROW(load(R"({"rerank": {"max_features": -5}})"), UsageError);
}
