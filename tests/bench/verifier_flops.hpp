#pragma once
// Floating point operations of the verifier, counted as the multiply-adds of its matrix products
// (2 each), from the layer shapes:
//   forward of a batch of B pairs padded to T with valid lengths L_b, q = 1 query row:
//     4·B·T·d² (keys, values) + 4·B·d² (query, output) + 4·d·ΣL_b (scores, context)
//     + 4·B·d·d_ff (feed-forward) + 2·B·d·classes (head);
//   a training step costs 3× its forward (each product's backward is two products of its size).

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "claimrag/verifier/training.hpp"

namespace claimrag::bench {

inline double forward_flops(const verifier::TokenBatch& batch, const verifier::VerifierOptions& options) {
  const auto B = static_cast<double>(batch.batch), T = static_cast<double>(batch.seq_len);
  const auto d = static_cast<double>(options.d_model), f = static_cast<double>(options.d_ff);
  const auto c = static_cast<double>(options.num_classes);
  const double valid = static_cast<double>(std::accumulate(batch.lengths.begin(), batch.lengths.end(), Eigen::Index{0}));
  return 4 * B * T * d * d + 4 * B * d * d + 4 * d * valid + 4 * B * d * f + 2 * B * d * c;
}

/// The batches train_verifier forms from `rng` (a copy of the generator it receives).
inline double training_flops(const verifier::TrainingSet& data, const verifier::VerifierOptions& model,
                             const verifier::TrainingOptions& options, std::mt19937_64 rng) {
  std::vector<std::size_t> order(data.pairs.size());
  double flops = 0;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t start = 0; start < order.size(); start += options.batch_size) {
      const std::size_t end = std::min(order.size(), start + options.batch_size);
      const std::vector<std::size_t> members(order.begin() + static_cast<std::ptrdiff_t>(start),
                                             order.begin() + static_cast<std::ptrdiff_t>(end));
      flops += 3 * forward_flops(verifier::make_batch(data.pairs, members), model);
    }
  }
  return flops;
}

/// The batches predict_probabilities forms (a stable sort by length, then runs of batch_size).
inline double scoring_flops(const std::vector<verifier::EncodedPair>& pairs, const verifier::VerifierOptions& model,
                            std::size_t batch_size) {
  std::vector<std::size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return pairs[a].ids.size() < pairs[b].ids.size(); });
  double flops = 0;
  for (std::size_t start = 0; start < pairs.size(); start += batch_size) {
    const std::vector<std::size_t> members(order.begin() + static_cast<std::ptrdiff_t>(start),
                                           order.begin() + static_cast<std::ptrdiff_t>(std::min(pairs.size(), start + batch_size)));
    flops += forward_flops(verifier::make_batch(pairs, members), model);
  }
  return flops;
}

}  // namespace claimrag::bench
