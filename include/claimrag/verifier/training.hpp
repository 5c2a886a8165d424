#pragma once
// Training the verifier with Adam on mini-batches, and scoring pairs with it.
//
// Parallelism and determinism: the only random choices are the initialisation (VerifierModel's
// constructor) and the per-epoch shuffle, both from the caller's generator. Each mini-batch is
// cut into fixed chunks of `chunk_size` pairs; OpenMP threads take the chunks in any order, each
// chunk computes its gradient into its own buffers, and the buffers are summed in chunk order.
// Scoring likewise cuts the pairs into fixed batches. Every product thus runs inside a parallel
// region, where Eigen does not spawn threads of its own, so the results are byte-identical
// whatever the thread count (they depend on chunk_size, which is why it is an option).
// Each step ends at a barrier, so on a machine shared with other work OMP_WAIT_POLICY=passive
// keeps idle threads from spinning on the cores the working ones need.

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "claimrag/nn/adam.hpp"
#include "claimrag/verifier/model.hpp"

namespace claimrag::verifier {

struct TrainingOptions {
  int epochs = 5;
  std::size_t batch_size = 32;
  std::size_t chunk_size = 16;  ///< pairs per unit of parallel work (≥ 1)
  nn::AdamOptions adam{.learning_rate = 1e-3};
  bool log_progress = true;  ///< one spdlog::info line per epoch with its mean loss
};

/// Labelled pairs: labels[i] ∈ [0, num_classes) is the class of pairs[i]; weights is empty
/// (all 1) or holds one non-negative weight per pair, scaling its loss.
struct TrainingSet {
  std::vector<EncodedPair> pairs;
  std::vector<std::int32_t> labels;
  std::vector<double> weights;
};

/// Trains `model` in place for options.epochs epochs over a fresh shuffle of `data` each; every
/// mini-batch takes one Adam step on its weighted mean cross-entropy. Returns each epoch's mean
/// loss (weighted over all its pairs). Throws UsageError on an empty set, mismatched sizes,
/// batch_size or chunk_size 0, a label out of range, a negative weight, or a pair that is
/// not a valid encoding for the model (ids outside the vocabulary, longer than max_length).
template <typename Scalar>
std::vector<double> train_verifier(VerifierModel<Scalar>& model, const TrainingSet& data,
                                   const TrainingOptions& options, std::mt19937_64& rng);

/// Class probabilities (pairs.size() × num_classes; row i, pair i's, sums to 1), computed in
/// batches of `batch_size` pairs of similar length (a stable sort by length, so padding is
/// minimal). Throws UsageError as train_verifier for pairs.
template <typename Scalar>
nn::Matrix<Scalar> predict_probabilities(const VerifierModel<Scalar>& model,
                                         const std::vector<EncodedPair>& pairs, std::size_t batch_size = 64);

}  // namespace claimrag::verifier
