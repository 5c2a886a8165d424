// Pretrained checkpoints in retrieval, end to end on the committed tiny fixtures: a dense index
// of a sentence encoder (with e5-style prefixes) ranks by the dot product of the embeddings that
// `claimrag predict` reports; a cross-encoder reorders a run's head by its score; both give the
// same bytes for one thread and two; a checkpoint of the wrong kind is refused naming its folder.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;
using nlohmann::json;

using claimrag::testing::kModels;
const std::string kEncoder = kModels + "bert-embedding-sharded";
const std::string kReranker = kModels + "bert-reranker-f16";
const std::string kClassifier = kModels + "bert-classifier";
using claimrag::testing::kTiny;

std::vector<json> predictions(const std::string& checkpoint, const std::vector<json>& inputs, TempFolder& folder) {
  std::ostringstream text;
  for (const auto& input : inputs) text << input.dump() << "\n";
  const auto in = folder.write("predict-in.jsonl", text.str());
  const auto out = folder.path() / "predict-out.jsonl";
  const auto outcome = run_claimrag("--quiet predict --checkpoint " + checkpoint + " --pairs " + in.string() + " --out " + out.string(),
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  std::vector<json> lines;
  std::istringstream lines_in(slurp(out));
  for (std::string line; std::getline(lines_in, line);) lines.push_back(json::parse(line));
  return lines;
}

// One TREC line's fields.
struct TrecLine {
  std::string query, doc;
  double score = 0;
};

std::vector<TrecLine> trec_lines(const fs::path& file) {
  std::vector<TrecLine> lines;
  std::istringstream in(slurp(file));
  std::string query, q0, doc, rank, score, tag;
  while (in >> query >> q0 >> doc >> rank >> score >> tag) lines.push_back({query, doc, std::stod(score)});
  return lines;
}

TEST(CliCheckpointRetrieval, EncoderIndexRanksByTheEmbeddingsDotProductForAnyThreadCount) {
  TempFolder folder;
  std::vector<std::string> runs;
  for (const std::string threads : {"1", "2"}) {
    const auto index = folder.path() / ("index" + threads);
    const auto built = run_claimrag("--quiet index --data " + kTiny + " --method dense --encoder " + kEncoder +
                                        " --query-prefix 'query: ' --passage-prefix 'passage: ' --out " + index.string() +
                                        " --threads " + threads,
                                    folder.path());
    ASSERT_EQ(built.exit_code, 0) << built.err;
    const auto run = folder.path() / ("run" + threads + ".trec");
    const auto retrieved = run_claimrag("--quiet retrieve --data " + kTiny + " --index " + index.string() +
                                            " --method dense --split test --k 6 --out " + run.string() + " --threads " + threads,
                                        folder.path());
    ASSERT_EQ(retrieved.exit_code, 0) << retrieved.err;
    runs.push_back(slurp(run));
    EXPECT_EQ(slurp(index / "encoder-documents.safetensors"), slurp(folder.path() / "index1" / "encoder-documents.safetensors"));
  }
  EXPECT_EQ(runs[0], runs[1]);
  const auto record = json::parse(slurp(folder.path() / "index1" / "encoder.json"));
  EXPECT_EQ(record["query_prefix"], "query: ");
  EXPECT_EQ(record["passage_prefix"], "passage: ");
  EXPECT_EQ(record["weights_xxh64"].size(), 3U);  // two shards and their index

  // q1's scores are the dot products of predict's embeddings of the prefixed texts.
  const auto embedded = predictions(kEncoder,
                                    {{{"id", "q1"}, {"text", "query: Aspirin lowers myocardial infarction risk."}},
                                     {{"id", "d1"}, {"text", "passage: Aspirin reduces heart attack risk Daily aspirin lowers the risk of myocardial infarction in adults."}},
                                     {{"id", "d6"}, {"text", "passage: Sleep deprivation Short sleep impairs memory consolidation."}}},
                                    folder);
  ASSERT_EQ(embedded.size(), 3U);
  const auto dot = [&](std::size_t a, std::size_t b) {
    double total = 0;
    for (std::size_t i = 0; i < embedded[a]["embedding"].size(); ++i) {
      total += embedded[a]["embedding"][i].get<double>() * embedded[b]["embedding"][i].get<double>();
    }
    return total;
  };
  std::size_t checked = 0;
  for (const auto& line : trec_lines(folder.path() / "run1.trec")) {
    if (line.query != "q1" || (line.doc != "d1" && line.doc != "d6")) continue;
    EXPECT_NEAR(line.score, dot(0, line.doc == "d1" ? 1 : 2), 1e-4) << line.doc;
    ++checked;
  }
  EXPECT_EQ(checked, 2U);
}

TEST(CliCheckpointRetrieval, CrossEncoderReordersTheHeadByItsScore) {
  TempFolder folder;
  const auto input = folder.write("bm25.trec", "q1 Q0 d6 1 3.0 bm25\nq1 Q0 d1 2 2.0 bm25\nq1 Q0 d3 3 1.0 bm25\n");
  std::vector<std::string> runs;
  for (const std::string threads : {"1", "2"}) {
    const auto out = folder.path() / ("reranked" + threads + ".trec");
    const auto outcome = run_claimrag("--quiet rerank --data " + kTiny + " --run " + input.string() + " --out " + out.string() +
                                          " --cross-encoder " + kReranker + " --rerank-depth 2 --threads " + threads,
                                      folder.path());
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
    runs.push_back(slurp(out));
  }
  EXPECT_EQ(runs[0], runs[1]);
  const auto scored = predictions(kReranker,
                                  {{{"id", "d6"}, {"text", "Aspirin lowers myocardial infarction risk."},
                                    {"text_pair", "Sleep deprivation Short sleep impairs memory consolidation."}},
                                   {{"id", "d1"}, {"text", "Aspirin lowers myocardial infarction risk."},
                                    {"text_pair", "Aspirin reduces heart attack risk Daily aspirin lowers the risk of myocardial infarction in adults."}}},
                                  folder);
  ASSERT_EQ(scored.size(), 2U);
  const double d6 = scored[0]["score"].get<double>(), d1 = scored[1]["score"].get<double>();
  const auto lines = trec_lines(folder.path() / "reranked1.trec");
  ASSERT_EQ(lines.size(), 3U);
  // The head of two by the logistic of the logit; d3, below the depth, stays last with score -1.
  EXPECT_EQ(lines[0].doc, d1 > d6 ? "d1" : "d6");
  EXPECT_NEAR(lines[0].score, 1.0 / (1.0 + std::exp(-std::max(d1, d6))), 1e-6);
  EXPECT_EQ(lines[2].doc, "d3");
  EXPECT_EQ(lines[2].score, -1.0);
}

TEST(CliCheckpointRetrieval, CheckpointsOfTheWrongKindAreRefusedNamingTheFolder) {
  TempFolder folder;
  const auto index = folder.path() / "index";
  const auto as_encoder = run_claimrag("index --data " + kTiny + " --method dense --encoder " + kClassifier + " --out " + index.string(),
                                       folder.path());
  EXPECT_EQ(as_encoder.exit_code, 2);
  EXPECT_NE(as_encoder.err.find(kClassifier), std::string::npos) << as_encoder.err;
  EXPECT_NE(as_encoder.err.find("embeddings"), std::string::npos) << as_encoder.err;
  EXPECT_FALSE(fs::exists(index / "encoder.json"));

  const auto input = folder.write("bm25.trec", "q1 Q0 d6 1 3.0 bm25\n");
  const auto out = folder.path() / "out.trec";
  const auto as_reranker = run_claimrag("rerank --data " + kTiny + " --run " + input.string() + " --out " + out.string() +
                                            " --cross-encoder " + kEncoder,
                                        folder.path());
  EXPECT_EQ(as_reranker.exit_code, 2);
  EXPECT_NE(as_reranker.err.find(kEncoder), std::string::npos) << as_reranker.err;
  // A classifier needs the label whose probability ranks; the message lists its labels.
  const auto no_label = run_claimrag("rerank --data " + kTiny + " --run " + input.string() + " --out " + out.string() +
                                         " --cross-encoder " + kClassifier,
                                     folder.path());
  EXPECT_EQ(no_label.exit_code, 2);
  EXPECT_NE(no_label.err.find("contradiction, entailment, neutral"), std::string::npos) << no_label.err;
  EXPECT_FALSE(fs::exists(out));
  const auto labelled = run_claimrag("--quiet rerank --data " + kTiny + " --run " + input.string() + " --out " + out.string() +
                                         " --cross-encoder " + kClassifier + " --label entailment",
                                     folder.path());
  EXPECT_EQ(labelled.exit_code, 0) << labelled.err;
}

}  // namespace
