#include "claimrag/verifier/training.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <numeric>
#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/nn/softmax_cross_entropy.hpp"

namespace claimrag::verifier {

using nn::Matrix;

namespace {

template <typename Scalar>
void check_pairs(const VerifierModel<Scalar>& model, const std::vector<EncodedPair>& pairs) {
  for (const EncodedPair& pair : pairs) {
    if (pair.ids.size() < 3 || pair.ids.size() != pair.segments.size() ||
        pair.ids.size() > model.options().max_length) {
      throw UsageError("verifier pair is not an encoding of length 3.." + std::to_string(model.options().max_length));
    }
    for (std::size_t t = 0; t < pair.ids.size(); ++t) {
      if (pair.ids[t] < 0 || static_cast<std::size_t>(pair.ids[t]) >= model.vocabulary_size() ||
          (pair.segments[t] != 0 && pair.segments[t] != 1)) {
        throw UsageError("verifier pair holds an id outside the vocabulary or a segment other than 0/1");
      }
    }
  }
}

template <typename Scalar>
void check_training_set(const VerifierModel<Scalar>& model, const TrainingSet& data, const TrainingOptions& options) {
  if (data.pairs.empty()) throw UsageError("verifier training set is empty");
  if (data.labels.size() != data.pairs.size() || (!data.weights.empty() && data.weights.size() != data.pairs.size())) {
    throw UsageError("verifier training set: labels or weights do not match the pairs");
  }
  if (options.batch_size == 0 || options.chunk_size == 0) {
    throw UsageError("verifier batch_size and chunk_size must be positive");
  }
  for (const std::int32_t label : data.labels) {
    if (label < 0 || label >= model.options().num_classes) throw UsageError("verifier label out of range");
  }
  for (const double weight : data.weights) {
    if (!(weight >= 0)) throw UsageError("verifier pair weight must be non-negative");
  }
  check_pairs(model, data.pairs);
}

/// One chunk's share of a training step: a copy of the network's parameters (values refreshed
/// from the model every step) with gradient buffers of its own.
template <typename Scalar>
struct ChunkWorker {
  nn::ParameterRegistry<Scalar> registry;
  VerifierNetwork<Scalar> network;
  std::vector<nn::Parameter<Scalar>*> masters;  ///< the model's parameter behind each entry
  TokenBatch batch;
  VerifierCache<Scalar> cache;
  nn::SoftmaxCrossEntropyCache<Scalar> loss_cache;
  Matrix<Scalar> logits;
  Matrix<Scalar> dembedded;
  double weighted_loss = 0;

  explicit ChunkWorker(VerifierModel<Scalar>& model) {
    std::mt19937_64 discarded(0);  // the initial values are overwritten before every use
    network = make_verifier_network(registry, model.options(), discarded);
    for (std::size_t i = 0; i < registry.size(); ++i) masters.push_back(&model.parameters().find(registry[i].name));
  }

  void run(const VerifierModel<Scalar>& model, const TrainingSet& data, const std::vector<std::size_t>& members,
           double batch_weight) {
    for (std::size_t i = 0; i < registry.size(); ++i) registry[i].value = masters[i]->value;
    registry.zero_grad();
    std::vector<std::int32_t> targets;
    std::vector<double> weights;
    for (const std::size_t member : members) {
      targets.push_back(data.labels[member]);
      if (!data.weights.empty()) weights.push_back(data.weights[member]);
    }
    batch = make_batch(data.pairs, members);
    model.embed_forward(batch, cache.embedded);
    network_forward(cache.embedded, batch, network, logits, cache);
    const double loss = nn::softmax_cross_entropy_forward(logits, targets, weights, loss_cache);
    weighted_loss = loss * loss_cache.weight_sum;
    Matrix<Scalar> dlogits = Matrix<Scalar>::Zero(logits.rows(), logits.cols());
    if (batch_weight > 0) {
      nn::softmax_cross_entropy_backward(loss_cache, static_cast<Scalar>(loss_cache.weight_sum / batch_weight), dlogits);
    }
    dembedded = Matrix<Scalar>::Zero(cache.embedded.rows(), cache.embedded.cols());
    network_backward(cache, network, dlogits, dembedded);
  }
};

// Clears every gradient before a batch. The token table's gradient is nonzero only in the rows the
// last batch's tokens reached (`touched`), so only those are cleared: the same zeros as clearing
// the whole table, without writing all of it for every batch.
template <typename Scalar>
void clear_gradients(nn::ParameterRegistry<Scalar>& registry, nn::Parameter<Scalar>& token_table,
                     std::vector<std::int32_t>& touched) {
  for (std::size_t i = 0; i < registry.size(); ++i) {
    nn::Parameter<Scalar>& parameter = registry[i];
    if (&parameter != &token_table) parameter.grad.setZero();
  }
  for (const std::int32_t row : touched) token_table.grad.row(row).setZero();  // a repeated row is cleared again
  touched.clear();
}

}  // namespace

template <typename Scalar>
std::vector<double> train_verifier(VerifierModel<Scalar>& model, const TrainingSet& data,
                                   const TrainingOptions& options, std::mt19937_64& rng) {
  check_training_set(model, data, options);
  nn::Adam<Scalar> adam(model.parameters(), options.adam);
  const std::size_t chunks_per_batch = (options.batch_size + options.chunk_size - 1) / options.chunk_size;
  std::vector<std::unique_ptr<ChunkWorker<Scalar>>> workers;
  for (std::size_t k = 0; k < std::min(chunks_per_batch, (data.pairs.size() + options.chunk_size - 1) / options.chunk_size); ++k) {
    workers.push_back(std::make_unique<ChunkWorker<Scalar>>(model));
  }
  std::vector<std::size_t> order(data.pairs.size());
  std::vector<double> epoch_losses;
  model.parameters().zero_grad();
  nn::Parameter<Scalar>& token_table = model.token_table();
  std::vector<std::int32_t> touched_token_rows;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), rng);
    double loss_sum = 0, weight_sum = 0;
    for (std::size_t start = 0; start < order.size(); start += options.batch_size) {
      const std::size_t end = std::min(order.size(), start + options.batch_size);
      double batch_weight = 0;
      for (std::size_t i = start; i < end; ++i) batch_weight += data.weights.empty() ? 1.0 : data.weights[order[i]];
      const std::size_t chunks = (end - start + options.chunk_size - 1) / options.chunk_size;
      parallel_for(chunks, [&](std::size_t k) {
        const std::size_t first = start + k * options.chunk_size;
        const std::size_t last = std::min(end, first + options.chunk_size);
        const std::vector<std::size_t> members(order.begin() + static_cast<std::ptrdiff_t>(first),
                                               order.begin() + static_cast<std::ptrdiff_t>(last));
        workers[k]->run(model, data, members, batch_weight);
      });
      clear_gradients(model.parameters(), token_table, touched_token_rows);
      for (std::size_t k = 0; k < chunks; ++k) {
        ChunkWorker<Scalar>& worker = *workers[k];
        for (std::size_t i = 0; i < worker.registry.size(); ++i) worker.masters[i]->grad += worker.registry[i].grad;
        model.embed_backward(worker.batch, worker.dembedded);
        touched_token_rows.insert(touched_token_rows.end(), worker.batch.ids.begin(), worker.batch.ids.end());
        loss_sum += worker.weighted_loss;
      }
      weight_sum += batch_weight;
      adam.step();
    }
    epoch_losses.push_back(weight_sum > 0 ? loss_sum / weight_sum : 0.0);
    if (options.log_progress) {
      spdlog::info("verifier epoch {}/{}: mean loss {:.4f}", epoch + 1, options.epochs, epoch_losses.back());
    }
  }
  return epoch_losses;
}

template <typename Scalar>
Matrix<Scalar> predict_probabilities(const VerifierModel<Scalar>& model, const std::vector<EncodedPair>& pairs,
                                     std::size_t batch_size) {
  if (batch_size == 0) throw UsageError("verifier scoring batch_size must be positive");
  check_pairs(model, pairs);
  // Batching pairs of similar length keeps padding (which costs keys and values) to a minimum.
  std::vector<std::size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return pairs[a].ids.size() < pairs[b].ids.size(); });
  Matrix<Scalar> probabilities(static_cast<Eigen::Index>(pairs.size()), model.options().num_classes);
  parallel_for((pairs.size() + batch_size - 1) / batch_size, [&](std::size_t k) {
    const std::size_t start = k * batch_size;
    const std::vector<std::size_t> members(order.begin() + static_cast<std::ptrdiff_t>(start),
                                           order.begin() + static_cast<std::ptrdiff_t>(std::min(pairs.size(), start + batch_size)));
    VerifierCache<Scalar> cache;
    Matrix<Scalar> logits;
    model.forward(make_batch(pairs, members), logits, cache);
    for (Eigen::Index r = 0; r < logits.rows(); ++r) {
      auto exponentials = (logits.row(r).array() - logits.row(r).maxCoeff()).exp();
      probabilities.row(static_cast<Eigen::Index>(members[static_cast<std::size_t>(r)])) = exponentials / exponentials.sum();
    }
  });
  return probabilities;
}

template std::vector<double> train_verifier<float>(VerifierModel<float>&, const TrainingSet&,
                                                   const TrainingOptions&, std::mt19937_64&);
template std::vector<double> train_verifier<double>(VerifierModel<double>&, const TrainingSet&,
                                                    const TrainingOptions&, std::mt19937_64&);
template Matrix<float> predict_probabilities<float>(const VerifierModel<float>&, const std::vector<EncodedPair>&,
                                                    std::size_t);
template Matrix<double> predict_probabilities<double>(const VerifierModel<double>&,
                                                      const std::vector<EncodedPair>&, std::size_t);

}  // namespace claimrag::verifier
