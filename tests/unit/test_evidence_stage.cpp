// The evidence stage on a hand-made BEIR folder with a SciFact release layout beside it:
// training data (pseudo-gold and gold positives), extraction, empty selections, truncation,
// determinism and bad input.

#include <gtest/gtest.h>

#include <omp.h>

#include <optional>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/experiment/evidence/evidence_stage.hpp"
#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/retrieval/rerank_stage.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::TempFolder;

namespace {

// Documents 1, 2, 6, 7 have two sentences; 4's only fragment is under 20 characters; 5 is empty.
// Every claim and most documents share "in", so BM25 ranks non-relevant documents for negatives.
void write_dataset(const TempFolder& folder) {
  folder.write("beir/corpus.jsonl",
               "{\"_id\":\"1\",\"title\":\"Aspirin\",\"text\":\"Aspirin lowers the risk of stroke in adults. Weather records show a sunny summer season.\"}\n"
               "{\"_id\":\"2\",\"title\":\"Vitamin\",\"text\":\"Vitamin D improves bone density in women. Many cats sleep for most of the day.\"}\n"
               "{\"_id\":\"3\",\"title\":\"Coffee\",\"text\":\"Coffee intake is unrelated to heart disease in men. Trains run late on rainy winter days.\"}\n"
               "{\"_id\":\"4\",\"title\":\"Aspirin stroke in brief\",\"text\":\"Tiny.\"}\n"
               "{\"_id\":\"5\",\"title\":\"Vitamin bone in brief\",\"text\":\"\"}\n"
               "{\"_id\":\"6\",\"title\":\"Exercise\",\"text\":\"Exercise reduces symptoms of depression in teens. Gardens need water during dry months.\"}\n"
               "{\"_id\":\"7\",\"title\":\"Sleep\",\"text\":\"Sleep loss impairs memory consolidation in students. Bridges were built across the river.\"}\n");
  folder.write("beir/queries.jsonl",
               "{\"_id\":\"11\",\"text\":\"Aspirin lowers stroke risk in adults.\"}\n"
               "{\"_id\":\"12\",\"text\":\"Vitamin D improves bone density in women.\"}\n"
               "{\"_id\":\"13\",\"text\":\"Exercise reduces depression symptoms in teens.\"}\n"
               "{\"_id\":\"21\",\"text\":\"Coffee is unrelated to heart disease.\"}\n"
               "{\"_id\":\"22\",\"text\":\"Sleep loss impairs memory.\"}\n"
               "{\"_id\":\"23\",\"text\":\"Quantum chromodynamics on the lattice.\"}\n"
               "{\"_id\":\"24\",\"text\":\"Aspirin stroke.\"}\n");
  folder.write("beir/qrels/train.tsv", "query-id\tcorpus-id\tscore\n11\t1\t1\n12\t2\t1\n13\t6\t1\n");
  folder.write("beir/qrels/test.tsv", "query-id\tcorpus-id\tscore\n21\t3\t1\n22\t7\t1\n23\t2\t1\n24\t4\t1\n");
  folder.write("original/corpus.jsonl",
               "{\"doc_id\":1,\"title\":\"Aspirin\",\"abstract\":[\"Aspirin lowers the risk of stroke in adults.\",\"Weather records show a sunny summer season.\"]}\n"
               "{\"doc_id\":2,\"title\":\"Vitamin\",\"abstract\":[\"Vitamin D improves bone density in women.\",\"Many cats sleep for most of the day.\"]}\n"
               "{\"doc_id\":6,\"title\":\"Exercise\",\"abstract\":[\"Exercise reduces symptoms of depression in teens.\",\"Gardens need water during dry months.\"]}\n");
  // Gold rationales chosen unlike the pseudo-gold: 11 cites its second sentence, 12 has none,
  // 13 cites both sentences of 6.
  folder.write("original/claims_train.jsonl",
               "{\"id\":11,\"claim\":\"Aspirin lowers stroke risk in adults.\",\"evidence\":{\"1\":[{\"sentences\":[1],\"label\":\"SUPPORT\"}]}}\n"
               "{\"id\":12,\"claim\":\"Vitamin D improves bone density in women.\",\"evidence\":{}}\n"
               "{\"id\":13,\"claim\":\"Exercise reduces depression symptoms in teens.\",\"evidence\":{\"6\":[{\"sentences\":[0,1],\"label\":\"SUPPORT\"}]}}\n");
  // A hand-made run: 21 -> 3 then 1; 22 -> 7; 23 absent; 24 -> 4 and 5, neither with sentences.
  folder.write("run.trec", "21 Q0 3 1 2.0 test\n21 Q0 1 2 1.0 test\n22 Q0 7 1 3.0 test\n24 Q0 4 1 1.0 test\n24 Q0 5 2 0.5 test\n");
}

experiment::ExperimentConfig small_config() {
  experiment::ExperimentConfig config;
  config.verifier.d_model = 8;
  config.verifier.heads = 2;
  config.verifier.d_ff = 16;
  config.verifier.max_length = 16;
  config.verifier.epochs = 3;
  config.verifier.batch_size = 4;
  config.verifier.chunk_size = 2;
  config.verifier.vocabulary_min_count = 1;
  config.data.original = "";
  return config;
}

std::set<std::string> keys(const std::vector<evidence::LabelledPair>& pairs, int label) {
  std::set<std::string> found;
  for (const auto& pair : pairs) {
    if (pair.label == label) found.insert(pair.claim_id + ":" + pair.sentence.doc_id + ":" + std::to_string(pair.sentence.index));
  }
  return found;
}

std::vector<std::string> described(const std::vector<evidence::LabelledPair>& pairs) {
  std::vector<std::string> lines;
  for (const auto& pair : pairs) {
    lines.push_back(pair.claim_id + ":" + pair.sentence.doc_id + ":" + std::to_string(pair.sentence.index) + ":" +
                    std::to_string(pair.label));
  }
  return lines;
}

}  // namespace

TEST(EvidenceTraining, PseudoGoldPositivesAndThreeNegativesEachFromNonRelevantDocuments) {
  TempFolder folder;
  write_dataset(folder);
  const experiment::EvidenceData data(folder.path() / "beir", 20);
  std::mt19937_64 rng(42);
  const auto pairs = experiment::verifier_training_pairs(data, small_config(), "train", "pseudo", "", rng);
  // The claims' own first sentences have the highest TF-IDF cosine in their relevant documents.
  EXPECT_EQ(keys(pairs, evidence::kPositiveLabel), (std::set<std::string>{"11:1:0", "12:2:0", "13:6:0"}));
  EXPECT_EQ(pairs.size(), 3u * 4u);
  for (const auto& pair : pairs) {
    if (pair.label != evidence::kNegativeLabel) continue;
    const std::string relevant = pair.claim_id == "11" ? "1" : pair.claim_id == "12" ? "2" : "6";
    EXPECT_NE(pair.sentence.doc_id, relevant);
  }
}

TEST(EvidenceTraining, GoldPositivesAreTheSplitterSentencesOfTheRationales) {
  TempFolder folder;
  write_dataset(folder);
  const experiment::EvidenceData data(folder.path() / "beir", 20);
  std::mt19937_64 rng(42);
  const auto pairs = experiment::verifier_training_pairs(data, small_config(), "train", "gold", folder.path() / "original", rng);
  EXPECT_EQ(keys(pairs, evidence::kPositiveLabel), (std::set<std::string>{"11:1:1", "13:6:0", "13:6:1"}));
  EXPECT_EQ(pairs.size(), 3u * 4u);  // 12 has no rationale: no pairs at all
  EXPECT_THROW(experiment::verifier_training_pairs(data, small_config(), "train", "silver", "", rng), UsageError);
}

// The reranker's BM25 index (read from its file) and TF-IDF vectorizer stand in for the ones
// training builds only when they are of the same corpus (and, for the vectorizer, the same
// max_features): the pairs and the random numbers drawn are the same either way.
TEST(EvidenceTraining, TheRerankerModelsOfTheSameCorpusGiveTheSamePairs) {
  TempFolder folder;
  write_dataset(folder);
  // Another corpus: the same documents and three more that BM25 would rank for every claim.
  folder.write("other/corpus.jsonl",
               io::read_file(folder.path() / "beir" / "corpus.jsonl") +
                   "{\"_id\":\"8\",\"title\":\"Aspirin vitamin exercise\",\"text\":\"Aspirin stroke adults in women in teens.\"}\n"
                   "{\"_id\":\"9\",\"title\":\"Vitamin bone density\",\"text\":\"Depression symptoms in adults and teens.\"}\n"
                   "{\"_id\":\"10\",\"title\":\"Stroke risk\",\"text\":\"Bone density and stroke risk in women.\"}\n");
  folder.write("other/queries.jsonl", io::read_file(folder.path() / "beir" / "queries.jsonl"));
  auto config = small_config();
  const experiment::EvidenceData data(folder.path() / "beir", 20);
  for (const std::string corpus : {"beir", "other"}) {
    experiment::index_bm25(folder.path() / corpus, folder.path() / (corpus + "-bm25"), config);
    for (const std::size_t max_features : {50000, 4}) {  // 4: a vectorizer unlike the pseudo-gold one
      config.rerank.max_features = max_features;
      const experiment::RerankResources resources(folder.path() / corpus, folder.path() / (corpus + "-bm25"), config);
      std::optional<tfidf::TfidfVectorizer> fitted, own;
      const auto& vectorizer = experiment::pseudo_gold_vectorizer(data, &resources.extractor(), fitted);
      EXPECT_EQ(&vectorizer == &resources.extractor().vectorizer(), corpus == "beir" && max_features == 50000);
      EXPECT_EQ(vectorizer.fingerprint(), experiment::pseudo_gold_vectorizer(data, nullptr, own).fingerprint());
      for (const std::string rationales : {"pseudo", "gold"}) {
        std::mt19937_64 own_rng(42), reusing_rng(42);
        const auto own = experiment::verifier_training_pairs(data, config, "train", rationales, folder.path() / "original", own_rng);
        const auto reusing = experiment::verifier_training_pairs(data, config, "train", rationales, folder.path() / "original",
                                                                 reusing_rng, &resources.extractor());
        EXPECT_EQ(described(reusing), described(own)) << corpus << " " << max_features << " " << rationales;
        EXPECT_EQ(reusing_rng(), own_rng());
      }
    }
  }
}

TEST(EvidenceStage, SelectionsEmptySelectionsAndTheirReasons) {
  TempFolder folder;
  write_dataset(folder);
  const auto config = small_config();
  const experiment::EvidenceData data(folder.path() / "beir", 20);
  std::mt19937_64 rng(42);
  const auto verifier = experiment::train_evidence_verifier(
      experiment::verifier_training_pairs(data, config, "train", "pseudo", "", rng), config.verifier, false, rng);
  ASSERT_EQ(verifier.epoch_losses.size(), 3u);
  std::vector<dataset::Query> claims;
  for (const auto& query : data.queries()) {
    if (query.id[0] == '2') claims.push_back(query);
  }
  const auto run = run::read_trec_run(folder.path() / "run.trec");
  const auto selections = experiment::extract_evidence(verifier, data, claims, run, config.evidence, 64, "run.trec");
  ASSERT_EQ(selections.size(), 4u);
  EXPECT_EQ(selections[0].claim_id, "21");
  EXPECT_EQ(selections[0].candidates, 4u);  // documents 3 and 1, two sentences each
  ASSERT_EQ(selections[0].selected.size(), 2u);
  EXPECT_GE(selections[0].selected[0].score, selections[0].selected[1].score);
  EXPECT_EQ(selections[1].candidates, 2u);
  EXPECT_TRUE(selections[2].selected.empty());
  EXPECT_EQ(selections[2].reason, evidence::kNoRanking);
  EXPECT_TRUE(selections[3].selected.empty());  // "Tiny." is too short, 5's abstract is empty
  EXPECT_EQ(selections[3].reason, evidence::kNoSentences);
  EXPECT_EQ(selections[3].candidates, 0u);
  run::Run empty_ranking;
  empty_ranking.add(run::Ranking{"21", {}});
  EXPECT_EQ(experiment::extract_evidence(verifier, data, {claims[0]}, empty_ranking, config.evidence, 64, "r")[0].reason,
            evidence::kNoDocuments);
}

TEST(EvidenceStage, LongSentencesAreScoredOnTheirFirstTokens) {
  TempFolder folder;
  write_dataset(folder);
  const auto config = small_config();  // max_length 16: a 3-token claim leaves 10 sentence tokens
  const experiment::EvidenceData data(folder.path() / "beir", 20);
  std::mt19937_64 rng(42);
  const auto verifier = experiment::train_evidence_verifier(
      experiment::verifier_training_pairs(data, config, "train", "pseudo", "", rng), config.verifier, false, rng);
  const std::string first_ten = "aspirin lowers the risk of stroke in adults weather records";
  const std::string longer = first_ten + " show a sunny summer season and many cats sleep for most of the day";
  const std::string other = "aspirin lowers the risk of stroke in adults weather aspirin";
  const auto scores = experiment::evidence_scores(verifier, {"aspirin lowers stroke", "aspirin lowers stroke", "aspirin lowers stroke"},
                                                  {longer, first_ten, other}, 64);
  EXPECT_EQ(scores[0], scores[1]);
  EXPECT_NE(scores[0], scores[2]);  // the tenth token matters: the cut is where the rule says
}

TEST(EvidenceStage, TheSameRunTwiceWritesIdenticalBytesAndMeta) {
  TempFolder folder;
  write_dataset(folder);
  experiment::ExtractEvidenceRequest request;
  request.data = folder.path() / "beir";
  request.run = folder.path() / "run.trec";
  request.log_progress = false;
  request.out = folder.path() / "a.jsonl";
  const auto summary = experiment::run_extract_evidence(request, small_config());
  request.out = folder.path() / "b.jsonl";
  (void)experiment::run_extract_evidence(request, small_config());
  EXPECT_EQ(io::read_file(folder.path() / "a.jsonl"), io::read_file(folder.path() / "b.jsonl"));
  EXPECT_TRUE(std::filesystem::exists(folder.path() / "a.meta.json"));
  EXPECT_EQ(summary.training_pairs, 12u);
  EXPECT_EQ(summary.positives, 3u);
  EXPECT_EQ(summary.claims, 4u);
  EXPECT_EQ(summary.claims_without_selection, 2u);
}

TEST(EvidenceStage, OneThreadAndTwoThreadsWriteIdenticalBytes) {
  TempFolder folder;
  write_dataset(folder);
  experiment::ExtractEvidenceRequest request;
  request.data = folder.path() / "beir";
  request.run = folder.path() / "run.trec";
  request.log_progress = false;
  const int threads = omp_get_max_threads();
  for (const int count : {1, 2}) {
    omp_set_num_threads(count);
    request.out = folder.path() / ("threads" + std::to_string(count) + ".jsonl");
    (void)experiment::run_extract_evidence(request, small_config());
  }
  omp_set_num_threads(threads);
  EXPECT_EQ(io::read_file(folder.path() / "threads1.jsonl"), io::read_file(folder.path() / "threads2.jsonl"));
}

TEST(EvidenceStage, ARunNamingAnUnknownDocumentIsADataErrorNamingTheRun) {
  TempFolder folder;
  write_dataset(folder);
  const auto bad = folder.write("bad.trec", "21 Q0 999 1 1.0 test\n");
  experiment::ExtractEvidenceRequest request;
  request.data = folder.path() / "beir";
  request.run = bad;
  request.out = folder.path() / "never.jsonl";
  request.log_progress = false;
  claimrag::testing::expect_error<DataError>([&] { (void)experiment::run_extract_evidence(request, small_config()); },
                                             bad.string() + ": query 21 ranks document 999, absent from the corpus");
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "never.jsonl"));
}
