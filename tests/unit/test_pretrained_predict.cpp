// predict over text pairs: the checkpoint's own tokenizer, the head's outputs by label name,
// truncation counted, bad input lines named.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/predict.hpp"
#include "pretrained_fixture.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::pretrained {
namespace {

using nlohmann::json;

std::vector<json> output_lines(const std::string& text) {
  std::vector<json> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    lines.push_back(json::parse(text.substr(start, end - start)));
    start = end + 1;
  }
  return lines;
}

TEST(PretrainedPredict, ClassifierLineHasIdsLogitsProbabilitiesAndLabel) {
  const testing::TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", "{\"id\": \"p1\", \"text\": \"The cat sat\", \"text_pair\": \"a dog ran\"}\n\n"
                                               "{\"id\": \"s1\", \"text\": \"cat\"}\n");
  const auto folder = testing::fixture_checkpoint("bert-classifier");
  const auto model = load_pretrained_model(folder);
  const auto tokenizer = tokenizer::load_tokenizer(folder, "bert");
  PredictSummary summary;
  const auto lines = output_lines(predict_lines(model, *tokenizer, read_pair_inputs(pairs), 0, 4, pairs.string(), summary));
  ASSERT_EQ(lines.size(), 2U);
  // The reference tokenizer's ids and the reference logits of the same texts.
  const auto expected = testing::expected_case("bert-classifier", "The cat sat", "a dog ran");
  EXPECT_EQ(lines[0]["id"], "p1");
  EXPECT_EQ(lines[0]["input_ids"].get<std::vector<std::int32_t>>(), expected.sequence.input_ids);
  const auto logits = lines[0]["logits"].get<std::vector<float>>();
  ASSERT_EQ(logits.size(), 3U);
  double total = 0.0;
  std::size_t best = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(logits[i], expected.values[i], 1e-4F);
    if (logits[i] > logits[best]) best = i;
  }
  const std::vector<std::string> labels{"contradiction", "entailment", "neutral"};
  for (const auto& label : labels) total += lines[0]["probabilities"][label].get<double>();
  EXPECT_NEAR(total, 1.0, 1e-6);
  EXPECT_EQ(lines[0]["label"], labels[best]);
  // A single text: [CLS] cat [SEP], as the reference tokenizer gives it.
  EXPECT_EQ(lines[1]["input_ids"].get<std::vector<std::int32_t>>(),
            testing::expected_case("bert-classifier", "cat", std::nullopt).sequence.input_ids);
  EXPECT_EQ(summary.inputs, 2U);
  EXPECT_EQ(summary.truncated_inputs, 0U);
}

// Inputs of many lengths, so that the length-sorted batches reorder them and cut them differently
// for each batch size; the output must be the same bytes, in input order, whatever the thread count.
TEST(PretrainedPredict, SameBytesForOneOrTwoThreadsAndAnyBatchSize) {
  const testing::TempFolder temp;
  std::string text;
  const std::vector<std::string> words{"the", "cat", "sat", "a", "dog", "ran", "on", "mat"};
  for (std::size_t i = 0; i < 11; ++i) {
    std::string first;
    std::string second;
    for (std::size_t w = 0; w < (i * 7) % 13 + 1; ++w) first += words[(i + w) % words.size()] + " ";
    for (std::size_t w = 0; w < (i * 5) % 9; ++w) second += words[(i * 3 + w) % words.size()] + " ";
    text += "{\"id\": \"q" + std::to_string(i) + "\", \"text\": \"" + first + "\"" +
            (second.empty() ? "" : ", \"text_pair\": \"" + second + "\"") + "}\n";
  }
  const auto pairs = temp.write("pairs.jsonl", text);
  for (const std::string name : {"bert-classifier", "roberta-classifier-bf16"}) {
    const auto folder = testing::fixture_checkpoint(name);
    const auto model = load_pretrained_model(folder);
    const auto tokenizer = tokenizer::load_tokenizer(folder, model.config().model_type);
    const auto inputs = read_pair_inputs(pairs);
    const auto run = [&](int threads, std::size_t batch_size) {
      const int saved = omp_get_max_threads();
      omp_set_num_threads(threads);
      PredictSummary summary;
      const std::string out = predict_lines(model, *tokenizer, inputs, 0, batch_size, pairs.string(), summary);
      omp_set_num_threads(saved);
      return out;
    };
    const std::string reference = run(1, 1);
    const auto lines = output_lines(reference);
    ASSERT_EQ(lines.size(), 11U) << name;
    for (std::size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(lines[i]["id"], "q" + std::to_string(i)) << name;
    EXPECT_EQ(run(2, 1), reference) << name;
    EXPECT_EQ(run(2, 3), reference) << name;
    EXPECT_EQ(run(2, 32), reference) << name;
    EXPECT_EQ(run(1, 4), reference) << name;
  }
}

TEST(PretrainedPredict, ScoreAndEmbeddingHeads) {
  const testing::TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", "{\"id\": \"q\", \"text\": \"drug reduces risk\", \"text_pair\": \"no effect\"}\n");
  const auto inputs = read_pair_inputs(pairs);
  PredictSummary summary;
  for (const std::string name : {"bert-reranker-f16", "bert-embedding-sharded"}) {
    const auto folder = testing::fixture_checkpoint(name);
    const auto model = load_pretrained_model(folder);
    const auto lines = output_lines(predict_lines(model, *tokenizer::load_tokenizer(folder, "bert"), inputs, 0, 1, pairs.string(), summary));
    ASSERT_EQ(lines.size(), 1U);
    if (model.head() == HeadKind::score) {
      EXPECT_TRUE(lines[0]["score"].is_number());
      EXPECT_FALSE(lines[0].contains("logits"));
    } else {
      EXPECT_EQ(lines[0]["embedding"].size(), 32U);
      EXPECT_FALSE(lines[0].contains("score"));
    }
  }
}

TEST(PretrainedPredict, TruncationIsCountedAndSaid) {
  const testing::TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", "{\"id\": \"long\", \"text\": \"the cat sat on the mat\", \"text_pair\": \"a dog ran\"}\n");
  const auto folder = testing::fixture_checkpoint("bert-classifier");
  const auto model = load_pretrained_model(folder);
  PredictSummary summary;
  // 6 + 3 words and 3 special tokens in 8 positions: 4 words must go.
  const auto lines = output_lines(
      predict_lines(model, *tokenizer::load_tokenizer(folder, "bert"), read_pair_inputs(pairs), 8, 1, pairs.string(), summary));
  EXPECT_EQ(lines[0]["input_ids"].size(), 8U);
  EXPECT_EQ(lines[0]["truncated_tokens"], 4);
  EXPECT_EQ(summary.truncated_inputs, 1U);
  EXPECT_EQ(summary.truncated_tokens, 4U);
  EXPECT_THROW((void)predict_lines(model, *tokenizer::load_tokenizer(folder, "bert"), read_pair_inputs(pairs), 65, 1,
                                   pairs.string(), summary),
               UsageError);
}

TEST(PretrainedPredict, BadInputLinesAreNamed) {
  const testing::TempFolder temp;
  const auto message = [&](const std::string& contents) {
    const auto pairs = temp.write("bad.jsonl", contents);
    try {
      (void)read_pair_inputs(pairs);
    } catch (const DataError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": 3, \"text\": \"y\"}\n").find("bad.jsonl:2: \"id\" is not a string"),
            std::string::npos);
  EXPECT_NE(message("{\"id\": \"a\"}\n").find("bad.jsonl:1: \"text\" is missing"), std::string::npos);
  EXPECT_NE(message("{\"id\": \"a\", \"text\": \"x\", \"label\": \"y\"}\n").find("unknown field \"label\""), std::string::npos);
  EXPECT_NE(message("{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"a\", \"text\": \"y\"}\n").find("bad.jsonl:2: id \"a\" appears twice"),
            std::string::npos);
  EXPECT_NE(message("\n").find("bad.jsonl: holds no JSON object"), std::string::npos);
  EXPECT_NE(message("{\"id\": \"a\", \"text\": \"x\", \"text\": \"y\"}\n").find("bad.jsonl:1: the key \"text\" appears twice"),
            std::string::npos);
  EXPECT_NE(message("{\"id\": \"a\", \"text\": \"x\"\n").find("bad.jsonl:1: malformed JSON"), std::string::npos);
}

TEST(PretrainedPredict, NothingIsWrittenOnError) {
  const testing::TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"b\"}\n");
  PredictOptions options;
  options.checkpoint = testing::fixture_checkpoint("bert-classifier");
  options.pairs = pairs;
  options.out = temp.path() / "out.jsonl";
  EXPECT_THROW((void)run_predict(options), DataError);
  EXPECT_FALSE(std::filesystem::exists(options.out));
  options.out = pairs;
  EXPECT_THROW((void)run_predict(options), UsageError);
  EXPECT_EQ(io::read_file(pairs), "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"b\"}\n");
}

TEST(PretrainedPredict, FolderWithoutTokenizerIsAnError) {
  const testing::TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", "{\"id\": \"a\", \"text\": \"x\"}\n");
  PredictOptions options;
  options.checkpoint = testing::fixture_checkpoint("deberta-v3-classifier");  // no tokenizer files in its folder
  options.pairs = pairs;
  options.out = temp.path() / "out.jsonl";
  EXPECT_THROW((void)run_predict(options), DataError);
  EXPECT_FALSE(std::filesystem::exists(options.out));
}

}  // namespace
}  // namespace claimrag::pretrained
