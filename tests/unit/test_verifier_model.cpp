// The verifier model and its training: shapes, masking, learning a separable toy task,
// determinism across runs and thread counts, chunking, and input validation.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>

#include "claimrag/error.hpp"
#include "claimrag/verifier/training.hpp"

using namespace claimrag::verifier;
using claimrag::nn::Matrix;

namespace {

constexpr std::int32_t kWords = 20;
constexpr std::size_t kVocabularySize = Vocabulary::reserved_count + kWords;

VerifierOptions small_options(int num_classes) {
  VerifierOptions options;
  options.num_classes = num_classes;
  options.d_model = 32;
  options.heads = 2;
  options.d_ff = 64;
  options.max_length = 16;
  return options;
}

std::int32_t random_word(std::mt19937_64& rng) {
  return Vocabulary::reserved_count + std::uniform_int_distribution<std::int32_t>(0, kWords - 1)(rng);
}

bool contains(const std::vector<std::int32_t>& text, std::int32_t id) {
  return std::find(text.begin(), text.end(), id) != text.end();
}

/// Claims of 3 distinct words, sentences of 3–7 words. Two classes: 1 when the sentence
/// contains the claim's first word. Three classes: 0 when it contains the first word, 1 when
/// it contains the second but not the first, 2 otherwise. Classes are drawn balanced.
TrainingSet toy_task(int num_classes, std::size_t count, std::mt19937_64& rng) {
  TrainingSet data;
  while (data.pairs.size() < count) {
    std::vector<std::int32_t> claim;
    while (claim.size() < 3) {
      const std::int32_t word = random_word(rng);
      if (!contains(claim, word)) claim.push_back(word);
    }
    const int wanted = static_cast<int>(data.pairs.size() % static_cast<std::size_t>(num_classes));
    std::vector<std::int32_t> sentence(std::uniform_int_distribution<std::size_t>(3, 7)(rng));
    for (auto& word : sentence) {
      do word = random_word(rng);
      while (word == claim[0] || (num_classes == 3 && word == claim[1]));
    }
    const std::size_t slot = std::uniform_int_distribution<std::size_t>(0, sentence.size() - 1)(rng);
    const int label = num_classes == 2 ? 1 - wanted : wanted;  // two classes: 1 (contains) first
    if (num_classes == 2 && label == 1) sentence[slot] = claim[0];
    if (num_classes == 3 && label == 0) sentence[slot] = claim[0];
    if (num_classes == 3 && label == 1) sentence[slot] = claim[1];
    data.pairs.push_back(encode_pair(claim, sentence, 16));
    data.labels.push_back(label);
  }
  return data;
}

double accuracy(const Matrix<float>& probabilities, const std::vector<std::int32_t>& labels) {
  std::size_t correct = 0;
  for (Eigen::Index r = 0; r < probabilities.rows(); ++r) {
    Eigen::Index best = 0;
    probabilities.row(r).maxCoeff(&best);
    correct += best == labels[static_cast<std::size_t>(r)];
  }
  return static_cast<double>(correct) / static_cast<double>(labels.size());
}

TrainingOptions toy_training(int epochs) {
  TrainingOptions options;
  options.epochs = epochs;
  options.batch_size = 16;
  options.chunk_size = 8;
  options.adam.learning_rate = 1e-3;
  options.log_progress = false;
  return options;
}

bool same_bytes(const claimrag::nn::ParameterRegistry<float>& a, const claimrag::nn::ParameterRegistry<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].value.size() != b[i].value.size() ||
        std::memcmp(a[i].value.data(), b[i].value.data(), sizeof(float) * static_cast<std::size_t>(a[i].value.size())) != 0) {
      return false;
    }
  }
  return true;
}

}  // namespace

TEST(VerifierModel, ShapesAndParameterNames) {
  for (const int classes : {2, 3}) {
    std::mt19937_64 rng(42);
    const VerifierModel<float> model(kVocabularySize, small_options(classes), rng);
    const auto& registry = model.parameters();
    EXPECT_EQ(registry[0].name, "token_embedding.table");
    EXPECT_EQ(registry.find("token_embedding.table").value.rows(), static_cast<Eigen::Index>(kVocabularySize));
    EXPECT_EQ(registry.find("position_embedding.table").value.rows(), 16);
    EXPECT_EQ(registry.find("segment_embedding.table").value.rows(), 2);
    EXPECT_EQ(registry.find("layer0.attention.key.weight").value.rows(), 32);
    EXPECT_EQ(registry.find("layer0.feed_forward.expand.weight").value.cols(), 64);
    EXPECT_EQ(registry.find("head.weight").value.cols(), classes);
    const std::vector<EncodedPair> pairs = {encode_pair({5, 6}, {7}, 16), encode_pair({8}, {9, 10, 11, 12}, 16),
                                            encode_pair({}, {}, 16)};
    Matrix<float> logits;
    VerifierCache<float> cache;
    model.forward(make_batch(pairs, {0, 1, 2}), logits, cache);
    EXPECT_EQ(logits.rows(), 3);
    EXPECT_EQ(logits.cols(), classes);
    const Matrix<float> probabilities = predict_probabilities(model, pairs, 2);
    ASSERT_EQ(probabilities.rows(), 3);
    ASSERT_EQ(probabilities.cols(), classes);
    for (Eigen::Index r = 0; r < 3; ++r) {
      EXPECT_NEAR(probabilities.row(r).sum(), 1.0f, 1e-6f);
      // Scoring batches by length must return each pair's own row.
      Matrix<float> alone;
      model.forward(make_batch(pairs, {static_cast<std::size_t>(r)}), alone, cache);
      const auto expected = (alone.array() - alone.maxCoeff()).exp();
      EXPECT_LT(((expected / expected.sum()).matrix() - probabilities.row(r)).cwiseAbs().maxCoeff(), 1e-5f) << r;
    }
  }
}

TEST(VerifierModel, ClsOnlyLayerEqualsTheFullLayersClsRow) {
  std::mt19937_64 rng(42);
  claimrag::nn::ParameterRegistry<double> registry;
  const auto layer = make_encoder_layer(registry, "layer", 8, 2, 16, rng);
  Matrix<double> x(3 * 6, 8);
  claimrag::nn::init_normal(x, 1.0, rng);
  const std::vector<Eigen::Index> lengths = {6, 2, 4};
  Matrix<double> full, cls_only;
  EncoderLayerCache<double> cache;
  encoder_layer_forward(x, lengths, {3, 6, 6}, layer, full, cache);
  encoder_layer_forward(x, lengths, {3, 6, 1}, layer, cls_only, cache);
  ASSERT_EQ(cls_only.rows(), 3);
  for (Eigen::Index b = 0; b < 3; ++b) {
    EXPECT_LT((full.row(b * 6) - cls_only.row(b)).cwiseAbs().maxCoeff(), 1e-12) << b;
  }
}

TEST(VerifierModel, RejectsInconsistentOptions) {
  std::mt19937_64 rng(42);
  VerifierOptions options = small_options(2);
  options.num_classes = 1;
  EXPECT_THROW(VerifierModel<float>(kVocabularySize, options, rng), claimrag::UsageError);
  options = small_options(2);
  options.heads = 3;
  EXPECT_THROW(VerifierModel<float>(kVocabularySize, options, rng), claimrag::UsageError);
  EXPECT_THROW(VerifierModel<float>(4, small_options(2), rng), claimrag::UsageError);
}

TEST(VerifierModel, PaddedTokensChangeNothing) {
  std::mt19937_64 rng(42);
  const VerifierModel<float> model(kVocabularySize, small_options(3), rng);
  const std::vector<EncodedPair> pairs = {encode_pair({5, 6, 7}, {8, 9, 10, 11, 12}, 16), encode_pair({13}, {14}, 16)};
  TokenBatch batch = make_batch(pairs, {0, 1});
  ASSERT_EQ(batch.lengths[1], 5);
  Matrix<float> logits, changed;
  VerifierCache<float> cache;
  model.forward(batch, logits, cache);
  for (Eigen::Index t = 5; t < batch.seq_len; ++t) {
    const auto entry = static_cast<std::size_t>(batch.seq_len + t);
    batch.ids[entry] = Vocabulary::reserved_count + static_cast<std::int32_t>(t);
    batch.segments[entry] = 1;
  }
  model.forward(batch, changed, cache);
  EXPECT_EQ(logits, changed);
  // The same change inside the valid part does change the logits, so the check can fail.
  batch.ids[static_cast<std::size_t>(batch.seq_len + 1)] = 20;
  model.forward(batch, changed, cache);
  EXPECT_NE(logits.row(1), changed.row(1));
  EXPECT_EQ(logits.row(0), changed.row(0));
}

TEST(VerifierTraining, OverfitsASeparableToyTask) {
  for (const int classes : {2, 3}) {
    std::mt19937_64 rng(42);
    const TrainingSet data = toy_task(classes, 64, rng);
    VerifierModel<float> model(kVocabularySize, small_options(classes), rng);
    // Matching a claim word inside the sentence has to emerge from what [CLS] pools through a
    // single layer, which takes on the order of a hundred epochs on this small set.
    const std::vector<double> losses = train_verifier(model, data, toy_training(100), rng);
    ASSERT_EQ(losses.size(), 100u);
    EXPECT_LT(losses.back(), 0.02) << classes;
    EXPECT_EQ(accuracy(predict_probabilities(model, data.pairs), data.labels), 1.0) << classes;
  }
}

TEST(VerifierTraining, SameSeedGivesByteIdenticalParametersWhateverTheThreadCount) {
  const int saved_threads = omp_get_max_threads();
  std::vector<std::unique_ptr<VerifierModel<float>>> models;
  std::vector<Matrix<float>> scores;
  for (const int threads : {1, 2, 2}) {
    omp_set_num_threads(threads);
    std::mt19937_64 rng(42);
    const TrainingSet data = toy_task(2, 70, rng);  // 70 pairs: a ragged last batch and chunk
    models.push_back(std::make_unique<VerifierModel<float>>(kVocabularySize, small_options(2), rng));
    train_verifier(*models.back(), data, toy_training(3), rng);
    scores.push_back(predict_probabilities(*models.back(), data.pairs, 8));
  }
  omp_set_num_threads(saved_threads);
  EXPECT_TRUE(same_bytes(models[0]->parameters(), models[1]->parameters()));
  EXPECT_TRUE(same_bytes(models[1]->parameters(), models[2]->parameters()));
  EXPECT_EQ(0, std::memcmp(scores[0].data(), scores[1].data(), sizeof(float) * static_cast<std::size_t>(scores[0].size())));
  // A different seed gives a different model, so the comparison above can fail.
  std::mt19937_64 rng(43);
  const TrainingSet data = toy_task(2, 70, rng);
  VerifierModel<float> other(kVocabularySize, small_options(2), rng);
  train_verifier(other, data, toy_training(3), rng);
  EXPECT_FALSE(same_bytes(models[0]->parameters(), other.parameters()));
}

TEST(VerifierTraining, ChunkingDoesNotChangeTheWeightedMeanGradient) {
  // In double, chunks of 1 and one chunk per batch take the same Adam steps up to rounding.
  std::mt19937_64 data_rng(42);
  TrainingSet data = toy_task(3, 40, data_rng);
  for (std::size_t i = 0; i < data.pairs.size(); ++i) data.weights.push_back(0.25 + static_cast<double>(i % 4));
  std::vector<std::unique_ptr<VerifierModel<double>>> models;
  std::vector<std::vector<double>> losses;
  for (const std::size_t chunk : {1u, 16u}) {
    std::mt19937_64 rng(42);
    models.push_back(std::make_unique<VerifierModel<double>>(kVocabularySize, small_options(3), rng));
    TrainingOptions options = toy_training(2);
    options.chunk_size = chunk;
    losses.push_back(train_verifier(*models.back(), data, options, rng));
  }
  EXPECT_NEAR(losses[0][1], losses[1][1], 1e-9);
  for (std::size_t i = 0; i < models[0]->parameters().size(); ++i) {
    EXPECT_LT((models[0]->parameters()[i].value - models[1]->parameters()[i].value).cwiseAbs().maxCoeff(), 1e-8)
        << models[0]->parameters()[i].name;
  }
}

TEST(VerifierTraining, RejectsBadInput) {
  std::mt19937_64 rng(42);
  VerifierModel<float> model(kVocabularySize, small_options(2), rng);
  TrainingSet data = toy_task(2, 4, rng);
  const TrainingOptions options = toy_training(1);
  EXPECT_THROW(train_verifier(model, TrainingSet{}, options, rng), claimrag::UsageError);
  TrainingSet bad = data;
  bad.labels[0] = 2;
  EXPECT_THROW(train_verifier(model, bad, options, rng), claimrag::UsageError);
  bad = data;
  bad.weights = {1, 1, -1, 1};
  EXPECT_THROW(train_verifier(model, bad, options, rng), claimrag::UsageError);
  bad = data;
  bad.pairs[1].ids[1] = static_cast<std::int32_t>(kVocabularySize);
  EXPECT_THROW(train_verifier(model, bad, options, rng), claimrag::UsageError);
  EXPECT_THROW(predict_probabilities(model, bad.pairs), claimrag::UsageError);
  bad = data;
  bad.pairs[0] = encode_pair(std::vector<std::int32_t>(20, 5), {}, 30);  // longer than max_length 16
  EXPECT_THROW(train_verifier(model, bad, options, rng), claimrag::UsageError);
}
