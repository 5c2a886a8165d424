#include <gtest/gtest.h>
#include <omp.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <sstream>

#include "claimrag/dense/train.hpp"
#include "claimrag/error.hpp"
#include "claimrag/nn/adam.hpp"

using claimrag::dense::DenseOptions;
using claimrag::dense::DualEncoder;
using claimrag::dense::TrainingPair;
using Texts = std::vector<std::vector<std::int32_t>>;

namespace {

struct Data {
  std::int32_t vocabulary = 0;
  Texts queries;
  Texts documents;
  std::vector<TrainingPair> pairs;
};

// Each query shares a few tokens with its document, so there is something to learn.
Data synthetic(std::int32_t vocabulary, int documents, int document_length, int pairs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int32_t> token(0, vocabulary - 1);
  std::uniform_int_distribution<int> document(0, documents - 1);
  Data data;
  data.vocabulary = vocabulary;
  data.documents.resize(static_cast<std::size_t>(documents));
  for (auto& text : data.documents) {
    for (int t = 0; t < document_length; ++t) text.push_back(token(rng));
  }
  for (int p = 0; p < pairs; ++p) {
    const int d = document(rng);
    std::vector<std::int32_t> query;
    for (int t = 0; t < 4; ++t) query.push_back(data.documents[static_cast<std::size_t>(d)][static_cast<std::size_t>(t)]);
    query.push_back(token(rng));
    data.queries.push_back(query);
    data.pairs.push_back({p, d});
  }
  // A query with a second relevant document, and a pair repeated under another query index.
  data.pairs.push_back({0, (data.pairs[0].document + 1) % documents});
  data.pairs.push_back({1, data.pairs[2].document});
  return data;
}

DenseOptions small_train_options() {
  DenseOptions options;
  options.dimension = 16;
  options.max_query_tokens = 4;
  options.max_document_tokens = 12;
  options.batch_size = 8;
  options.epochs = 5;
  options.quiet = true;
  return options;
}

bool same_bytes(const DualEncoder<float>& a, const DualEncoder<float>& b) {
  if (a.parameters().size() != b.parameters().size()) return false;
  for (std::size_t i = 0; i < a.parameters().size(); ++i) {
    const auto& x = a.parameters()[i].value;
    const auto& y = b.parameters()[i].value;
    if (x.rows() != y.rows() || x.cols() != y.cols() ||
        std::memcmp(x.data(), y.data(), static_cast<std::size_t>(x.size()) * sizeof(float)) != 0) {
      return false;
    }
  }
  return true;
}

// The recipe spelled out with the plain pieces: dense nn::Adam over whole tables, no row
// renumbering, consecutive slices of each epoch's permutation, the short last batch kept.
claimrag::dense::TrainedModel reference_fit(const Data& data, const DenseOptions& options) {
  std::mt19937_64 rng(options.seed);
  claimrag::dense::TrainedModel trained{DualEncoder<float>(data.vocabulary, options), {}};
  auto& model = trained.model;
  model.initialise(rng);
  claimrag::nn::AdamOptions adam_options;
  adam_options.learning_rate = options.learning_rate;
  claimrag::nn::Adam<float> adam(model.parameters(), adam_options);
  auto sorted = data.pairs;
  std::sort(sorted.begin(), sorted.end());
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    const auto order = claimrag::dense::shuffled_order(data.pairs.size(), rng);
    double sum = 0;
    for (std::size_t begin = 0; begin < order.size(); begin += static_cast<std::size_t>(options.batch_size)) {
      const std::size_t end = std::min(order.size(), begin + static_cast<std::size_t>(options.batch_size));
      const std::vector<std::size_t> batch(order.begin() + static_cast<std::ptrdiff_t>(begin),
                                           order.begin() + static_cast<std::ptrdiff_t>(end));
      model.parameters().zero_grad();
      const auto laid_out = claimrag::dense::make_contrastive_batch(model, data.queries, data.documents, data.pairs,
                                                                    batch, sorted);
      sum += claimrag::dense::contrastive_forward_backward(model, laid_out) * static_cast<double>(batch.size());
      adam.step();
    }
    trained.epoch_losses.push_back(sum / static_cast<double>(data.pairs.size()));
  }
  return trained;
}

}  // namespace

TEST(DenseTrain, ShuffledOrderIsAPermutationFixedByTheGenerator) {
  std::mt19937_64 a(42), b(42);
  const auto first = claimrag::dense::shuffled_order(50, a);
  EXPECT_EQ(first, claimrag::dense::shuffled_order(50, b));
  auto sorted = first;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
  EXPECT_NE(first, sorted);
}

TEST(DenseTrain, FastPathEqualsThePlainRecipeByteForByte) {
  const Data data = synthetic(200, 40, 15, 45, 1);  // 47 pairs: 5 batches of 8 and one of 7
  for (const bool shared : {true, false}) {
    DenseOptions options = small_train_options();
    options.shared_towers = shared;
    const auto fast = claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, options);
    const auto plain = reference_fit(data, options);
    EXPECT_TRUE(same_bytes(fast.model, plain.model)) << "shared towers " << shared;
    EXPECT_EQ(fast.epoch_losses, plain.epoch_losses);
  }
}

TEST(DenseTrain, LossFallsOnLearnableData) {
  const Data data = synthetic(300, 60, 20, 80, 2);
  DenseOptions options = small_train_options();
  options.epochs = 30;
  options.learning_rate = 2e-2;
  const auto trained = claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, options);
  ASSERT_EQ(trained.epoch_losses.size(), 30u);
  EXPECT_LT(trained.epoch_losses.back(), 0.5 * trained.epoch_losses.front());
}

TEST(DenseTrain, SameSeedSameBytesOtherSeedOtherBytes) {
  const Data data = synthetic(200, 40, 15, 45, 3);
  const auto a = claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, small_train_options());
  const auto b = claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, small_train_options());
  EXPECT_TRUE(same_bytes(a.model, b.model));
  DenseOptions other = small_train_options();
  other.seed = 43;
  const auto c = claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, other);
  EXPECT_FALSE(same_bytes(a.model, c.model));
}

TEST(DenseTrain, OneOrTwoThreadsGiveTheSameBytes) {
  // Large enough (from the first batch on, over 2^20 active table entries: ~9k of 12k rows) for
  // Adam's row loop to use the threads, and for document encoding's bag loop too.
  const Data data = synthetic(12000, 400, 250, 200, 4);
  DenseOptions options = small_train_options();
  options.dimension = 128;
  options.max_document_tokens = 256;
  options.batch_size = 64;
  options.epochs = 2;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, options);
  const auto one_encoded = one.model.encode(data.documents, claimrag::dense::Tower::document);
  omp_set_num_threads(2);
  const auto two = claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, options);
  const auto two_encoded = two.model.encode(data.documents, claimrag::dense::Tower::document);
  omp_set_num_threads(saved);
  EXPECT_TRUE(same_bytes(one.model, two.model));
  EXPECT_EQ(one.epoch_losses, two.epoch_losses);
  EXPECT_EQ(one_encoded, two_encoded);
}

TEST(DenseTrain, TextsEncodedWhileTheTablesAreDrawnGiveTheSameBytes) {
  const Data data = synthetic(3000, 100, 40, 60, 5);
  const auto plain = claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, small_train_options());
  Texts queries, documents;
  const auto alongside = claimrag::dense::fit(data.vocabulary, queries, documents, data.pairs, small_train_options(), [&] {
    queries = data.queries;
    documents = data.documents;
  });
  EXPECT_TRUE(same_bytes(plain.model, alongside.model));
  EXPECT_EQ(plain.epoch_losses, alongside.epoch_losses);
  Texts none;
  EXPECT_THROW(claimrag::dense::fit(data.vocabulary, none, none, data.pairs, small_train_options(), [] { throw claimrag::DataError("x"); }),
               claimrag::DataError);
}

TEST(DenseTrain, LogsOneLinePerEpochUnlessQuiet) {
  const Data data = synthetic(100, 20, 10, 20, 5);
  std::ostringstream log;
  auto logger = std::make_shared<spdlog::logger>("dense-test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log));
  const auto previous = spdlog::default_logger();
  spdlog::set_default_logger(logger);
  DenseOptions options = small_train_options();
  options.epochs = 3;
  options.quiet = false;
  claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, options);
  const std::string loud = log.str();
  log.str("");
  options.quiet = true;
  claimrag::dense::fit(data.vocabulary, data.queries, data.documents, data.pairs, options);
  spdlog::set_default_logger(previous);
  EXPECT_EQ(std::count(loud.begin(), loud.end(), '\n'), 3);
  EXPECT_NE(loud.find("epoch 3/3 mean loss"), std::string::npos) << loud;
  EXPECT_TRUE(log.str().empty());
}

TEST(DenseTrain, RefusesAnEmptyPairListAndPairsOutOfRange) {
  const Data data = synthetic(100, 20, 10, 20, 6);
  EXPECT_THROW(claimrag::dense::fit(data.vocabulary, data.queries, data.documents, {}, small_train_options()),
               claimrag::UsageError);
  EXPECT_THROW(claimrag::dense::fit(data.vocabulary, data.queries, data.documents, {{0, 20}}, small_train_options()),
               claimrag::InternalError);
}
