#pragma once
// The verifier network: token + position + segment embeddings, one post-LN encoder layer, and a
// linear head on the [CLS] vector giving `num_classes` logits (2 for the paper's
// evidence / not-evidence, 3 for supports / refutes / not enough info).
//
// The head reads only position 0, and with one layer only the [CLS] query influences it, so the
// layer runs with query_len = 1: keys and values for every token, everything after the attention
// weights for [CLS] alone. The logits are the same as a full layer's; the cost drops ~4×.
// The embedding sum is not layer-normalised (BERT's is): the first residual's norm follows it.
// A consequence of one layer read at [CLS]: its query does not depend on the input, so relating
// a claim token to a sentence token must emerge from the attention-pooled values through the
// feed-forward block. It does (the unit tests overfit such a task), but slowly; a second layer
// would let every token attend first.

#include <cstddef>
#include <random>

#include "claimrag/nn/embedding.hpp"
#include "claimrag/nn/linear.hpp"
#include "claimrag/verifier/encoder_layer.hpp"
#include "claimrag/verifier/pair_batch.hpp"

namespace claimrag::verifier {

/// The network's sizes. Defaults train on SciFact's ~1,800 pairs in seconds.
struct VerifierOptions {
  int num_classes = 2;               ///< ≥ 2
  Eigen::Index d_model = 64;         ///< divisible by heads
  Eigen::Index heads = 2;
  Eigen::Index d_ff = 128;           ///< feed-forward hidden width
  std::size_t max_length = 64;       ///< pair length including [CLS] and both [SEP]; ≥ 3
  double embedding_stddev = 0.02;    ///< N(0, σ²) initialisation of the three tables (BERT's)
};

/// The parameters after the embeddings: the encoder layer and the head.
template <typename Scalar>
struct VerifierNetwork {
  EncoderLayer<Scalar> layer;
  nn::Linear<Scalar> head;
};

/// Registers `layer0.*` then `head.*` for the sizes of `options`.
template <typename Scalar>
VerifierNetwork<Scalar> make_verifier_network(nn::ParameterRegistry<Scalar>& registry,
                                              const VerifierOptions& options, std::mt19937_64& rng);

/// What the backward pass needs.
template <typename Scalar>
struct VerifierCache {
  nn::Matrix<Scalar> embedded;  ///< batch·seq_len × d_model
  EncoderLayerCache<Scalar> layer;
  nn::Matrix<Scalar> pooled;    ///< batch × d_model, the [CLS] rows after the layer
};

/// Parameters, in registration (and initialisation) order: token_embedding, position_embedding,
/// segment_embedding, layer0.*, head.*.
template <typename Scalar>
class VerifierModel {
 public:
  /// Throws UsageError on inconsistent options (num_classes < 2, d_model not divisible by
  /// heads, max_length < 3, vocabulary_size ≤ reserved ids).
  VerifierModel(std::size_t vocabulary_size, const VerifierOptions& options, std::mt19937_64& rng);

  /// Sets embedded (batch·seq_len × d_model) to the sum of the token, position and segment
  /// embeddings of a batch whose seq_len ≤ max_length and ids < vocabulary size.
  void embed_forward(const TokenBatch& batch, nn::Matrix<Scalar>& embedded) const;
  /// Given dembedded (batch·seq_len × d_model): adds into the three tables' gradients.
  void embed_backward(const TokenBatch& batch, const nn::Matrix<Scalar>& dembedded);

  /// logits (batch × num_classes): embed_forward, then network_forward with this model's network.
  void forward(const TokenBatch& batch, nn::Matrix<Scalar>& logits, VerifierCache<Scalar>& cache) const;
  /// Given dlogits (batch × num_classes): adds into every parameter's gradient.
  void backward(const TokenBatch& batch, const VerifierCache<Scalar>& cache,
                const nn::Matrix<Scalar>& dlogits);

  [[nodiscard]] const VerifierNetwork<Scalar>& network() const { return network_; }
  [[nodiscard]] nn::ParameterRegistry<Scalar>& parameters() { return registry_; }
  /// The token embedding table (one of parameters()), whose gradient only a batch's tokens reach.
  [[nodiscard]] nn::Parameter<Scalar>& token_table() { return *token_.table; }
  [[nodiscard]] const nn::ParameterRegistry<Scalar>& parameters() const { return registry_; }
  [[nodiscard]] const VerifierOptions& options() const { return options_; }
  [[nodiscard]] std::size_t vocabulary_size() const { return vocabulary_size_; }

 private:
  VerifierOptions options_;
  std::size_t vocabulary_size_;
  nn::ParameterRegistry<Scalar> registry_;
  nn::Embedding<Scalar> token_;
  nn::Embedding<Scalar> position_;
  nn::Embedding<Scalar> segment_;
  VerifierNetwork<Scalar> network_;
};

/// logits (batch × num_classes) from the embedded batch (batch·seq_len × d_model); fills
/// cache.layer and cache.pooled (cache.embedded is left alone).
template <typename Scalar>
void network_forward(const nn::Matrix<Scalar>& embedded, const TokenBatch& batch,
                     const VerifierNetwork<Scalar>& network, nn::Matrix<Scalar>& logits,
                     VerifierCache<Scalar>& cache);

/// Given dlogits (batch × num_classes): adds into the network's gradients and into dembedded
/// (batch·seq_len × d_model).
template <typename Scalar>
void network_backward(const VerifierCache<Scalar>& cache, const VerifierNetwork<Scalar>& network,
                      const nn::Matrix<Scalar>& dlogits, nn::Matrix<Scalar>& dembedded);

}  // namespace claimrag::verifier
