// claimrag on a BEIR dataset other than SciFact, made here: ids with whitespace, a claim that
// shares no token with the corpus, a judged document the corpus lacks, reproduce without
// SciFact's original layout, and frozen expectations of one's own.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

const char* const kTopics[][3] = {{"aspirin", "heart", "attack"},    {"smoking", "lung", "cancer"},   {"coffee", "blood", "pressure"},
                                  {"exercise", "memory", "decline"}, {"vitamin", "bone", "fractures"}, {"sleep", "loss", "obesity"},
                                  {"salt", "stroke", "incidence"},   {"statins", "cholesterol", "levels"},
                                  {"insulin", "glucose", "control"}, {"antibiotics", "gut", "bacteria"},
                                  {"alcohol", "liver", "damage"},    {"sugar", "tooth", "decay"}};

std::string line(const nlohmann::json& object) { return object.dump() + "\n"; }

// 36 documents (3 per topic), 15 train claims (3 judged on another topic, so that the gate's
// training claims hold hallucinations too), 7 test claims: one is punctuation only, and one judges
// a document the corpus lacks.
void write_dataset(const TempFolder& folder) {
  std::string corpus, queries, train = "query-id\tcorpus-id\tscore\n", test = train;
  for (int i = 0; i < 12; ++i) {
    const auto* w = kTopics[i];
    const std::string subject = std::string(w[1]) + " " + w[2];
    for (int j = 0; j < 3; ++j) {
      corpus += line({{"_id", "doc-" + std::to_string(i) + "-" + std::to_string(j)},
                      {"title", "Study " + std::to_string(j) + " of " + w[0] + " " + subject},
                      {"text", std::string("We measured how ") + w[0] + " changes " + subject + " in adults. The trial found that " +
                                   w[0] + " strongly affects " + subject + " over ten years. Participants numbered " +
                                   std::to_string(100 + 7 * j) + " in cohort " + std::to_string(i) + "."}});
    }
    const std::string id = "tr" + std::to_string(i);
    queries += line({{"_id", id}, {"text", std::string(w[0]) + " affects " + subject + "."}});
    train += id + "\tdoc-" + std::to_string(i) + "-0\t1\n" + id + "\tdoc-" + std::to_string(i) + "-1\t1\n";
    if (i < 6) {
      const std::string test_id = "te" + std::to_string(i);
      queries += line({{"_id", test_id}, {"text", std::string("Does ") + w[0] + " change " + subject + " in adults?"}});
      test += test_id + "\tdoc-" + std::to_string(i) + "-2\t1\n";
    }
  }
  for (int i = 0; i < 3; ++i) {
    queries += line({{"_id", "trx" + std::to_string(i)}, {"text", std::string(kTopics[i][0]) + " affects " + kTopics[i][1] + "."}});
    train += "trx" + std::to_string(i) + "\tdoc-" + std::to_string(9 + i) + "-0\t1\n";
  }
  queries += line({{"_id", "te-none"}, {"text", "\xC2\xBF\xC2\xA1 \xE2\x80\x94 ?"}});
  test += "te-none\tdoc-0-1\t1\nte0\tdoc-missing\t1\n";
  folder.write("beir/corpus.jsonl", corpus);
  folder.write("beir/queries.jsonl", queries);
  folder.write("beir/qrels/train.tsv", train);
  folder.write("beir/qrels/test.tsv", test);
  // Paths relative to the configuration's folder, not to the working directory (the source tree).
  folder.write("configs/synthetic.json", R"({"name": "synthetic", "data": {"name": "synthetic BEIR", "beir": "../beir"},
    "dense": {"dimension": 16, "epochs": 2, "batch_size": 8},
    "verifier": {"d_model": 16, "heads": 2, "d_ff": 16, "epochs": 1, "vocabulary_min_count": 1},
    "gate": {"thresholds": "0:4:2"}})");
}

}  // namespace

TEST(CliBeirAny, ReproduceRunsOnASecondDatasetWithoutSciFactsStages) {
  TempFolder folder;
  write_dataset(folder);
  const auto out = folder.path() / "out";
  const auto frozen = folder.path() / "frozen.json";
  auto outcome = run_claimrag("reproduce --config " + (folder.path() / "configs/synthetic.json").string() + " --out " + out.string() +
                                  " --freeze " + frozen.string(),
                              folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  // stdout holds the verdict lines (none: this configuration expects nothing) and one summary line;
  // progress went to stderr.
  EXPECT_EQ(outcome.out.rfind("0 OK, 0 FAIL, ", 0), 0u) << outcome.out;
  EXPECT_EQ(std::count(outcome.out.begin(), outcome.out.end(), '\n'), 1) << outcome.out;
  EXPECT_NE(outcome.err.find("reproduction -> "), std::string::npos) << outcome.err;
  // The judged document the corpus lacks: a warning with the count and the first ids.
  EXPECT_NE(outcome.err.find("qrels/test.tsv: 1 judged document(s) missing from"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("(first: doc-missing)"), std::string::npos) << outcome.err;
  const auto results = nlohmann::json::parse(slurp(out / "results.json"))["metrics"];
  EXPECT_EQ(results["table1"]["corpus_documents"].get<double>(), 36.0);
  EXPECT_EQ(results["table1"]["test_claims"].get<double>(), 7.0);
  EXPECT_TRUE(results.contains("hybrid_rerank"));
  EXPECT_TRUE(results.contains("evidence"));
  EXPECT_FALSE(results.contains("evidence_gold"));  // no original layout, no gold-rationale stage
  EXPECT_FALSE(results["evidence"].contains("rationale_f1@1"));
  // The punctuation-only claim has no BM25 line (an empty ranking) and still goes through fusion.
  EXPECT_EQ(slurp(out / "runs/bm25.trec").find("te-none "), std::string::npos);
  EXPECT_NE(slurp(out / "runs/hybrid_rerank.trec").find("te-none "), std::string::npos);
  // No paper file configured: no paper row anywhere.
  EXPECT_EQ(slurp(out / "tables/table7.tsv").find("paper"), std::string::npos);
  EXPECT_EQ(slurp(out / "evidence/evidence.tsv").find("\npaper\t"), std::string::npos);

  // The frozen file checks OK; one number moved makes the check fail with exit 1.
  outcome = run_claimrag("evaluate --results " + (out / "results.json").string() + " --check " + frozen.string(), folder.path());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  auto perturbed = nlohmann::json::parse(slurp(out / "results.json"));
  perturbed["metrics"]["bm25"]["ndcg@10"] = perturbed["metrics"]["bm25"]["ndcg@10"].get<double>() + 1e-9;
  folder.write("perturbed.json", perturbed.dump());
  outcome = run_claimrag("evaluate --results " + (folder.path() / "perturbed.json").string() + " --check " + frozen.string(),
                         folder.path());
  EXPECT_EQ(outcome.exit_code, 1) << outcome.err;
  EXPECT_NE(outcome.out.find("FAIL bm25 ndcg@10"), std::string::npos) << outcome.out;

  // The reranked run is tagged hybrid+rerank; evaluate checks it under section hybrid_rerank.
  outcome = run_claimrag("evaluate --data " + (folder.path() / "beir").string() + " --split test --run " +
                             (out / "runs/hybrid_rerank.trec").string() + " --out " + (folder.path() / "eval").string() +
                             " --check " + frozen.string(),
                         folder.path());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err << outcome.out;

  // gate --signal verifier_top1 with --evidence, and the evidence_f1 column filled from it.
  outcome = run_claimrag("gate --data " + (folder.path() / "beir").string() + " --split test --run " +
                             (out / "runs/hybrid_rerank.trec").string() + " --signal verifier_top1,bm25_top1 --bm25-run " +
                             (out / "runs/bm25.trec").string() + " --evidence " + (out / "evidence/evidence.jsonl").string() +
                             " --thresholds 0 --out " + (folder.path() / "sweep.tsv").string(),
                         folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  // At threshold 0 every claim with documents is answered, so the column is the mean token F1@2
  // over the claims: the evidence section's own mean.
  char expected_f1[32];
  std::snprintf(expected_f1, sizeof expected_f1, "%.6f", results["evidence"]["token_f1@2"].get<double>());
  const std::string sweep = slurp(folder.path() / "sweep.tsv");
  EXPECT_NE(sweep.find("\nbm25_top1\t0.000000\t7\t1.000000\t0.000000\t"), std::string::npos) << sweep;
  EXPECT_NE(sweep.find(std::string("\t") + expected_f1 + "\n"), std::string::npos) << sweep;
  EXPECT_NE(std::string(expected_f1), "0.000000");
  EXPECT_NE(sweep.find("\nverifier_top1\t"), std::string::npos) << sweep;
}

TEST(CliBeirAny, AnIdWithWhitespaceIsRefusedNamingFileAndLine) {
  TempFolder folder;
  folder.write("beir/corpus.jsonl", "{\"_id\": \"Aspirin\", \"text\": \"a\"}\n{\"_id\": \"Barack Obama\", \"text\": \"b\"}\n");
  const auto outcome = run_claimrag("index --data " + (folder.path() / "beir").string() + " --method bm25 --out " +
                                        (folder.path() / "index").string(),
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find("corpus.jsonl:2: \"_id\" \"Barack Obama\" contains a space"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "index"));
}

// Without --config, the configuration in force is named: the shipped one, compiled in, the same
// from the source tree and from any other folder.
TEST(CliBeirAny, ADefaultConfigurationIsNeverSilent) {
  TempFolder folder;
  folder.write("beir/qrels/test.tsv", "q1\td1\t1\n");
  folder.write("run.trec", "q1 Q0 d1 1 2.5 bm25\n");
  const std::string arguments = "--quiet evaluate --data " + (folder.path() / "beir").string() + " --split test --run " +
                                (folder.path() / "run.trec").string() + " --out " + (folder.path() / "e").string();
  for (const auto& working_directory : {std::filesystem::path(CLAIMRAG_SOURCE_DIR), folder.path()}) {
    const auto outcome = run_claimrag(arguments, folder.path(), working_directory);
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
    EXPECT_NE(outcome.err.find("no --config given: using the shipped configuration configs/scifact.json (compiled in)"),
              std::string::npos)
        << outcome.err;
  }
}
