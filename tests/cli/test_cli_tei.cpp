// Text Embeddings Inference end to end: `rerank --cross-encoder tei:URL` and `index` / `retrieve`
// with `--encoder tei:URL` against a fake server on 127.0.0.1 answering with the committed tiny
// checkpoints give the bytes the same checkpoints give from their folders; each run is recorded
// (beside --out; inside the index folder for `index`), replays with the server stopped to the same
// bytes, and a replay lacking a request fails with exit code 3 and writes nothing.

#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "support/fixture_paths.hpp"
#include "support/fake_tei.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::FakeTeiServer;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;
using nlohmann::json;

const std::string kTeiModels = std::string(CLAIMRAG_SOURCE_DIR) + "/tests/fixtures/pretrained/models/";
const std::string kEncoder = kTeiModels + "bert-embedding-sharded";
const std::string kReranker = kTeiModels + "bert-reranker-f16";
using claimrag::testing::kTiny;
// Short waits: the fake answers at once, and a stopped server refuses the connection.
const std::string kQuick = " --timeout 5 --deadline 10 --retries 0";

std::unique_ptr<FakeTeiServer> serving(const claimrag::pretrained::TextModel& reranker, const claimrag::pretrained::TextModel& encoder) {
  return std::make_unique<FakeTeiServer>([&](const std::string& path, const json& body) {
    return path == "/rerank" ? claimrag::testing::rerank_with_checkpoint(reranker, body)
                             : claimrag::testing::embed_with_checkpoint(encoder, body);
  });
}

TEST(CliTei, RerankMatchesTheFolderRecordsAndReplaysOffline) {
  TempFolder folder;
  const claimrag::pretrained::TextModel reranker(kReranker), encoder(kEncoder);
  auto server = serving(reranker, encoder);
  const std::string url = server->url();
  const auto input = folder.write("bm25.trec", "q1 Q0 d6 1 3.0 bm25\nq1 Q0 d1 2 2.0 bm25\nq1 Q0 d3 3 1.0 bm25\n"
                                               "q2 Q0 d2 1 2.0 bm25\nq2 Q0 d4 2 1.0 bm25\n");
  const std::string common = "--quiet rerank --data " + kTiny + " --run " + input.string() + " --rerank-depth 2";
  const auto local = folder.path() / "local.trec";
  ASSERT_EQ(run_claimrag(common + " --cross-encoder " + kReranker + " --out " + local.string(), folder.path()).exit_code, 0);

  const std::string served_flags = " --cross-encoder tei:" + url + " --batch-size 1" + kQuick;
  const auto served = folder.path() / "served.trec";
  const auto live = run_claimrag(common + served_flags + " --out " + served.string(), folder.path());
  ASSERT_EQ(live.exit_code, 0) << live.err;
  EXPECT_EQ(slurp(served), slurp(local));
  EXPECT_EQ(server->received().size(), 4U);  // two heads of two, one text a request
  for (const auto& body : server->received()) EXPECT_EQ(body["texts"].size(), 1U);
  const auto recording = folder.path() / "served.recording.jsonl";
  ASSERT_TRUE(fs::exists(recording));
  EXPECT_EQ(claimrag::testing::json_lines(recording).size(), 4U);
  // Requests in flight at once do not change the run or the recording, whatever order replies come in.
  for (const std::string concurrency : {"1", "4"}) {
    const auto again = folder.path() / ("concurrency" + concurrency + ".trec");
    ASSERT_EQ(run_claimrag(common + served_flags + " --concurrency " + concurrency + " --out " + again.string(), folder.path()).exit_code, 0);
    EXPECT_EQ(slurp(again), slurp(local));
    EXPECT_EQ(slurp(folder.path() / ("concurrency" + concurrency + ".recording.jsonl")), slurp(recording));
  }
  server.reset();  // offline from here

  const auto replayed = folder.path() / "replayed.trec";
  const auto replay = run_claimrag(common + served_flags + " --replay " + recording.string() + " --out " + replayed.string(),
                                   folder.path());
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(slurp(replayed), slurp(local));
  EXPECT_FALSE(fs::exists(folder.path() / "replayed.recording.jsonl"));  // a replay is not recorded again

  // A deeper head asks for pairs the recording lacks: exit 3, nothing written.
  const auto deeper = folder.path() / "deeper.trec";
  const auto missing = run_claimrag("--quiet rerank --data " + kTiny + " --run " + input.string() + " --rerank-depth 3" +
                                        served_flags + " --replay " + recording.string() + " --out " + deeper.string(),
                                    folder.path());
  EXPECT_EQ(missing.exit_code, 3) << missing.err;
  EXPECT_FALSE(fs::exists(deeper));
  // With the server gone, a live run fails naming the URL, and writes neither the run nor a recording.
  const auto gone = run_claimrag(common + served_flags + " --out " + deeper.string(), folder.path());
  EXPECT_EQ(gone.exit_code, 3) << gone.err;
  EXPECT_NE(gone.err.find(url), std::string::npos) << gone.err;
  EXPECT_FALSE(fs::exists(deeper));
  EXPECT_FALSE(fs::exists(folder.path() / "deeper.recording.jsonl"));
}

TEST(CliTei, EncoderIndexAndRetrieveMatchTheFolderRecordAndReplayOffline) {
  TempFolder folder;
  const claimrag::pretrained::TextModel reranker(kReranker), encoder(kEncoder);
  auto server = serving(reranker, encoder);
  const std::string url = server->url();
  const std::string prefixes = " --query-prefix 'query: ' --passage-prefix 'passage: '";
  const auto retrieve = [&](const fs::path& index, const fs::path& run, const std::string& extra) {
    return run_claimrag("--quiet retrieve --data " + kTiny + " --index " + index.string() + " --method dense --split test --k 4 --out " +
                            run.string() + extra,
                        folder.path());
  };
  const auto local_index = folder.path() / "local-index";
  ASSERT_EQ(run_claimrag("--quiet index --data " + kTiny + " --method dense --encoder " + kEncoder + prefixes + " --out " +
                             local_index.string(),
                         folder.path())
                .exit_code,
            0);
  ASSERT_EQ(retrieve(local_index, folder.path() / "local.trec", "").exit_code, 0);

  const auto index = folder.path() / "served-index";
  const auto built = run_claimrag("--quiet index --data " + kTiny + " --method dense --encoder tei:" + url + prefixes +
                                      " --batch-size 4 --out " + index.string() + kQuick,
                                  folder.path());
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const auto record = json::parse(slurp(index / "encoder.json"));
  EXPECT_EQ(record["served"], "tei:" + url);
  EXPECT_EQ(record["dimension"], 32);
  EXPECT_EQ(record["passage_prefix"], "passage: ");
  EXPECT_EQ(server->received().size(), 2U);  // six documents, four a request
  EXPECT_EQ(server->received()[0]["inputs"][0].get<std::string>().rfind("passage: ", 0), 0U);
  const auto index_recording = index / "encoder.recording.jsonl";
  ASSERT_TRUE(fs::exists(index_recording));

  // Queries go through the URL the index recorded.
  const auto served_run = folder.path() / "served.trec";
  const auto live = retrieve(index, served_run, kQuick);
  ASSERT_EQ(live.exit_code, 0) << live.err;
  EXPECT_EQ(slurp(served_run), slurp(folder.path() / "local.trec"));
  const auto run_recording = folder.path() / "served.recording.jsonl";
  ASSERT_TRUE(fs::exists(run_recording));
  server.reset();  // offline from here

  const auto replayed_index = folder.path() / "replayed-index";
  const auto rebuilt = run_claimrag("--quiet index --data " + kTiny + " --method dense --encoder tei:" + url + prefixes +
                                        " --batch-size 4 --replay " + index_recording.string() + " --out " + replayed_index.string() +
                                        kQuick,
                                    folder.path());
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  EXPECT_EQ(slurp(replayed_index / "encoder-documents.safetensors"), slurp(index / "encoder-documents.safetensors"));
  const auto replayed_run = folder.path() / "replayed.trec";
  const auto replayed = retrieve(replayed_index, replayed_run, " --replay " + run_recording.string() + kQuick);
  ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
  EXPECT_EQ(slurp(replayed_run), slurp(folder.path() / "local.trec"));

  // Another batch size makes other requests: the recording lacks them; nothing is written.
  const auto other_index = folder.path() / "other-index";
  const auto missing = run_claimrag("--quiet index --data " + kTiny + " --method dense --encoder tei:" + url + prefixes +
                                        " --batch-size 3 --replay " + index_recording.string() + " --out " + other_index.string() +
                                        kQuick,
                                    folder.path());
  EXPECT_EQ(missing.exit_code, 3) << missing.err;
  EXPECT_FALSE(fs::exists(other_index / "encoder.json"));
  EXPECT_FALSE(fs::exists(other_index / "encoder-documents.safetensors"));
  const auto other_run = folder.path() / "other.trec";
  const auto missing_queries = retrieve(index, other_run, " --query-prefix 'q: ' --replay " + run_recording.string() + kQuick);
  EXPECT_EQ(missing_queries.exit_code, 3) << missing_queries.err;
  EXPECT_FALSE(fs::exists(other_run));
}

TEST(CliTei, RetrieveRefusesEmbeddingsOfAnotherDimension) {
  TempFolder folder;
  const claimrag::pretrained::TextModel reranker(kReranker), encoder(kEncoder);
  auto server = serving(reranker, encoder);
  const auto index = folder.path() / "index";
  ASSERT_EQ(run_claimrag("--quiet index --data " + kTiny + " --method dense --encoder tei:" + server->url() + " --out " +
                             index.string() + kQuick,
                         folder.path())
                .exit_code,
            0);
  // Another server whose model embeds in 3 dimensions.
  FakeTeiServer other([](const std::string&, const json& body) {
    json reply = json::array();
    for (std::size_t i = 0; i < body["inputs"].size(); ++i) reply.push_back({1.0, 0.0, 0.0});
    return reply;
  });
  const auto run = folder.path() / "run.trec";
  const auto outcome = run_claimrag("--quiet retrieve --data " + kTiny + " --index " + index.string() +
                                        " --method dense --split test --k 2 --encoder tei:" + other.url() + " --out " + run.string() +
                                        kQuick,
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find("holds vectors of 32 dimensions, and tei:" + other.url() + " gives 3"), std::string::npos) << outcome.err;
  EXPECT_FALSE(fs::exists(run));
  EXPECT_FALSE(fs::exists(folder.path() / "run.recording.jsonl"));
  // A folder for a served index, --record without a served model and --label for a served
  // reranker are usage errors.
  EXPECT_EQ(run_claimrag("retrieve --data " + kTiny + " --index " + index.string() + " --method dense --split test --encoder " +
                             kEncoder + " --out " + run.string(),
                         folder.path())
                .exit_code,
            2);
  const auto input = folder.write("bm25.trec", "q1 Q0 d6 1 3.0 bm25\n");
  const auto reranked = folder.path() / "reranked.trec";
  const auto with_record = run_claimrag("rerank --data " + kTiny + " --run " + input.string() + " --cross-encoder " + kReranker +
                                            " --record " + (folder.path() / "r.jsonl").string() + " --out " + reranked.string(),
                                        folder.path());
  EXPECT_EQ(with_record.exit_code, 2);
  EXPECT_NE(with_record.err.find("--record and --replay apply to a served model"), std::string::npos) << with_record.err;
  // A served reranker has one score: --label, a classifier's, is refused before anything is sent.
  const auto with_label = run_claimrag("rerank --data " + kTiny + " --run " + input.string() + " --cross-encoder tei:" + server->url() +
                                           " --label entailment --out " + reranked.string(),
                                       folder.path());
  EXPECT_EQ(with_label.exit_code, 2);
  EXPECT_NE(with_label.err.find("--label entailment"), std::string::npos) << with_label.err;
  EXPECT_FALSE(fs::exists(reranked));
}

TEST(CliTei, VerifyPairsGivesTheCheckpointVerifiersVerdictsAndRecordsWhatItUsed) {
  TempFolder folder;
  const auto checkpoint = std::make_shared<const claimrag::verification::NliCheckpoint>(kTeiModels + "bert-classifier");
  auto server = std::make_unique<FakeTeiServer>(
      [&](const std::string&, const json& body) { return claimrag::testing::predict_with_checkpoint(*checkpoint, body); });
  const std::string url = server->url();
  const auto pairs = folder.write("pairs.jsonl",
                                  R"({"id": "a", "claim": "the drug reduces risk", "evidence": "The drug reduces risk of cancer. It was tested in mice."})"
                                  "\n"
                                  R"({"id": "b", "claim": "the dog ran", "evidence": "A cat sat on the mat. No dog was seen. The end."})"
                                  "\n");
  const auto config = folder.write("config.json", json{{"verification", {{"checkpoint", {{"threshold", 0.34}, {"batch_size", 2}}}}}}.dump());
  const std::string common = "--quiet verify --pairs " + pairs.string() + " --config " + config.string();
  const auto local = folder.path() / "local.jsonl";
  ASSERT_EQ(run_claimrag(common + " --verifier checkpoint:" + kTeiModels + "bert-classifier --out " + local.string(), folder.path()).exit_code,
            0);
  const auto served = folder.path() / "served.jsonl";
  const auto live = run_claimrag(common + " --verifier tei:" + url + " --out " + served.string(), folder.path());
  ASSERT_EQ(live.exit_code, 0) << live.err;
  EXPECT_EQ(slurp(served), slurp(local));
  std::size_t sent = 0;
  for (const auto& body : server->received()) {
    EXPECT_LE(body["inputs"].size(), 2U);
    sent += body["inputs"].size();
  }
  EXPECT_EQ(sent, 5U);  // one pair per sentence
  const auto meta = json::parse(slurp(folder.path() / "served.meta.json"));
  EXPECT_EQ(meta["verifier"]["spec"], "tei:" + url);
  EXPECT_EQ(meta["verifier"]["rule"], json::parse(R"({"premise": "sentence", "threshold": 0.34, "max_rationale": 3})"));
  EXPECT_EQ(meta["verifier"]["batch_size"], 2);

  server.reset();  // a verifier that cannot be reached stops the run: exit 3, nothing written
  const auto gone = folder.path() / "gone.jsonl";
  const auto failed = run_claimrag(common + " --verifier tei:" + url + " --out " + gone.string(), folder.path());
  EXPECT_EQ(failed.exit_code, 3) << failed.err;
  EXPECT_NE(failed.err.find(url), std::string::npos) << failed.err;
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_FALSE(fs::exists(folder.path() / "gone.meta.json"));
}

TEST(CliTei, RefusedScoresAreCountedFailuresOfTheirOwnPairs) {
  TempFolder folder;
  const auto checkpoint = std::make_shared<const claimrag::verification::NliCheckpoint>(kTeiModels + "bert-classifier");
  // The server answers a premise about a cat with (1, 1, 1): three certainties, not a distribution.
  FakeTeiServer server([&](const std::string&, const json& body) {
    if (body["inputs"][0][0].get<std::string>().find("cat") != std::string::npos) {
      return json::array({json::array({{{"label", "entailment"}, {"score", 1}},
                                       {{"label", "neutral"}, {"score", 1}},
                                       {{"label", "contradiction"}, {"score", 1}}})});
    }
    return claimrag::testing::predict_with_checkpoint(*checkpoint, body);
  });
  const auto pairs = folder.write("pairs.jsonl",
                                  R"({"id": "a", "claim": "the drug reduces risk", "evidence": "The drug reduces risk of cancer. It was tested in mice."})"
                                  "\n"
                                  R"({"id": "b", "claim": "the dog ran", "evidence": "A cat sat on the mat. No dog was seen. The end."})"
                                  "\n");
  const auto config = folder.write("config.json", json{{"verification", {{"checkpoint", {{"batch_size", 1}}}}}}.dump());
  const std::string common = "--quiet verify --pairs " + pairs.string() + " --config " + config.string() + " --verifier tei:" +
                             server.url() + kQuick;
  // By default no pair may go unjudged: exit 3, the count, the reason with the URL, nothing written.
  const auto strict = folder.path() / "strict.jsonl";
  const auto refused = run_claimrag(common + " --out " + strict.string(), folder.path());
  EXPECT_EQ(refused.exit_code, 3) << refused.err;
  EXPECT_NE(refused.err.find("1 of 2 pairs could not be judged"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find(server.url() + ": POST /predict failed: prediction 0's scores sum to 3"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(strict));
  EXPECT_FALSE(fs::exists(folder.path() / "strict.meta.json"));
  // Allowed, the refused pair is written NOT_ENOUGH_INFO (0, 0, 1) with its reason; the other is judged.
  const auto lenient = folder.path() / "lenient.jsonl";
  const auto allowed = run_claimrag(common + " --max-failures 0.5 --out " + lenient.string(), folder.path());
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  std::vector<json> lines;
  std::istringstream written(slurp(lenient));
  for (std::string line; std::getline(written, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_FALSE(lines[0].contains("failed")) << lines[0].dump();
  EXPECT_EQ(lines[1]["label"], "NOT_ENOUGH_INFO");
  EXPECT_EQ(lines[1]["probabilities"], json::parse(R"({"SUPPORT": 0.0, "CONTRADICT": 0.0, "NOT_ENOUGH_INFO": 1.0})"));
  EXPECT_NE(lines[1]["failed"].get<std::string>().find("not a probability distribution"), std::string::npos) << lines[1].dump();
}

TEST(CliTei, GroundSufficiencyAndInterrogateGiveTheCheckpointVerifiersOutputs) {
  TempFolder folder;
  const std::string checkpoint_folder = kTeiModels + "bert-classifier";
  const auto checkpoint = std::make_shared<const claimrag::verification::NliCheckpoint>(checkpoint_folder);
  FakeTeiServer server([&](const std::string&, const json& body) { return claimrag::testing::predict_with_checkpoint(*checkpoint, body); });
  const auto config = folder.write("config.json", json{{"verification", {{"checkpoint", {{"threshold", 0.34}}}}}}.dump());
  const auto examples = folder.write("examples.jsonl", R"({"id": "e1", "claim": "the drug reduces risk", "evidence": ["the drug reduces risk of cancer", "a cat sat"]})"
                                                       "\n");
  const auto pairs = folder.write("ipairs.jsonl", R"({"id": "p1", "claim": "the drug reduces risk", "evidence": "the drug reduces risk of cancer"})"
                                                  "\n");
  const auto probes = folder.write("probes.json", R"({"probes": [
      {"id": "o", "original": true, "template": "{abstract} Is \"{claim}\" true?"},
      {"id": "f", "asks": "false", "template": "{abstract} Is \"{claim}\" false?"}]})");
  const std::vector<std::pair<std::string, std::string>> commands{
      {"ground", "ground --data " + kTiny + " --answers data/fixtures/grounding/answers.jsonl"},
      {"sufficiency", "sufficiency --examples " + examples.string() + " --aggregator data/fixtures/sufficiency/aggregator.json"},
      {"interrogate", "interrogate --pairs " + pairs.string() + " --probes " + probes.string() + " --samples 2 --responder builtin"}};
  for (const auto& [name, command] : commands) {
    SCOPED_TRACE(name);
    const auto local = folder.path() / (name + "-local.jsonl");
    const auto served = folder.path() / (name + "-served.jsonl");
    const std::string common = "--quiet " + command + " --config " + config.string();
    const auto by_folder = run_claimrag(common + " --verifier checkpoint:" + checkpoint_folder + " --out " + local.string(), folder.path());
    ASSERT_EQ(by_folder.exit_code, 0) << by_folder.err;
    const auto by_server = run_claimrag(common + " --verifier tei:" + server.url() + " --out " + served.string(), folder.path());
    ASSERT_EQ(by_server.exit_code, 0) << by_server.err;
    EXPECT_EQ(slurp(served), slurp(local));
    EXPECT_EQ(json::parse(slurp(folder.path() / (name + "-served.meta.json")))["verifier"]["spec"], "tei:" + server.url());
  }
  EXPECT_FALSE(server.received().empty());
}

}  // namespace
