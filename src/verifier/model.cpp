#include "claimrag/verifier/model.hpp"

#include "claimrag/error.hpp"

namespace claimrag::verifier {

using nn::Matrix;

namespace {

void check_options(std::size_t vocabulary_size, const VerifierOptions& options) {
  if (options.num_classes < 2) throw UsageError("verifier num_classes must be at least 2");
  if (options.heads < 1 || options.d_model < 1 || options.d_model % options.heads != 0) {
    throw UsageError("verifier d_model must be a positive multiple of heads");
  }
  if (options.d_ff < 1) throw UsageError("verifier d_ff must be positive");
  if (options.max_length < 3) throw UsageError("verifier max_length must be at least 3");
  if (vocabulary_size <= static_cast<std::size_t>(Vocabulary::reserved_count)) {
    throw UsageError("verifier vocabulary has no words");
  }
}

}  // namespace

template <typename Scalar>
VerifierNetwork<Scalar> make_verifier_network(nn::ParameterRegistry<Scalar>& registry,
                                              const VerifierOptions& options, std::mt19937_64& rng) {
  VerifierNetwork<Scalar> network;
  network.layer = make_encoder_layer(registry, "layer0", options.d_model, options.heads, options.d_ff, rng);
  network.head = nn::make_linear(registry, "head", options.d_model, static_cast<Eigen::Index>(options.num_classes), rng);
  return network;
}

template <typename Scalar>
VerifierModel<Scalar>::VerifierModel(std::size_t vocabulary_size, const VerifierOptions& options,
                                     std::mt19937_64& rng)
    : options_(options), vocabulary_size_(vocabulary_size) {
  check_options(vocabulary_size, options);
  const Eigen::Index d = options.d_model;
  token_ = nn::make_embedding(registry_, "token_embedding", static_cast<Eigen::Index>(vocabulary_size), d,
                              options.embedding_stddev, rng);
  position_ = nn::make_embedding(registry_, "position_embedding", static_cast<Eigen::Index>(options.max_length),
                                 d, options.embedding_stddev, rng);
  segment_ = nn::make_embedding(registry_, "segment_embedding", 2, d, options.embedding_stddev, rng);
  network_ = make_verifier_network(registry_, options, rng);
}

template <typename Scalar>
void VerifierModel<Scalar>::embed_forward(const TokenBatch& batch, Matrix<Scalar>& embedded) const {
  // embedded: B·T × d
  if (batch.seq_len > static_cast<Eigen::Index>(options_.max_length)) {
    throw InternalError("verifier batch longer than max_length");
  }
  embedded = Matrix<Scalar>::Zero(batch.batch * batch.seq_len, options_.d_model);
  nn::embedding_forward(batch.ids, token_, embedded);
  nn::embedding_forward(batch.positions, position_, embedded);
  nn::embedding_forward(batch.segments, segment_, embedded);
}

template <typename Scalar>
void VerifierModel<Scalar>::embed_backward(const TokenBatch& batch, const Matrix<Scalar>& dembedded) {
  // dembedded: B·T × d
  nn::embedding_backward(batch.ids, token_, dembedded);
  nn::embedding_backward(batch.positions, position_, dembedded);
  nn::embedding_backward(batch.segments, segment_, dembedded);
}

template <typename Scalar>
void VerifierModel<Scalar>::forward(const TokenBatch& batch, Matrix<Scalar>& logits,
                                    VerifierCache<Scalar>& cache) const {
  embed_forward(batch, cache.embedded);
  network_forward(cache.embedded, batch, network_, logits, cache);
}

template <typename Scalar>
void VerifierModel<Scalar>::backward(const TokenBatch& batch, const VerifierCache<Scalar>& cache,
                                     const Matrix<Scalar>& dlogits) {
  Matrix<Scalar> dembedded = Matrix<Scalar>::Zero(cache.embedded.rows(), cache.embedded.cols());
  network_backward(cache, network_, dlogits, dembedded);
  embed_backward(batch, dembedded);
}

template <typename Scalar>
void network_forward(const Matrix<Scalar>& embedded, const TokenBatch& batch,
                     const VerifierNetwork<Scalar>& network, Matrix<Scalar>& logits,
                     VerifierCache<Scalar>& cache) {
  // embedded: B·T × d, pooled: B × d, logits: B × classes
  const nn::AttentionShape shape{batch.batch, batch.seq_len, 1};
  encoder_layer_forward(embedded, batch.lengths, shape, network.layer, cache.pooled, cache.layer);
  nn::linear_forward(cache.pooled, network.head, logits);
}

template <typename Scalar>
void network_backward(const VerifierCache<Scalar>& cache, const VerifierNetwork<Scalar>& network,
                      const Matrix<Scalar>& dlogits, Matrix<Scalar>& dembedded) {
  // dlogits: B × classes, dpooled: B × d, dembedded: B·T × d
  Matrix<Scalar> dpooled = Matrix<Scalar>::Zero(cache.pooled.rows(), cache.pooled.cols());
  nn::linear_backward(cache.pooled, network.head, dlogits, &dpooled);
  encoder_layer_backward(cache.layer, network.layer, dpooled, dembedded);
}

#define CLAIMRAG_INSTANTIATE(Scalar)                                                                  \
  template class VerifierModel<Scalar>;                                                               \
  template VerifierNetwork<Scalar> make_verifier_network<Scalar>(nn::ParameterRegistry<Scalar>&,      \
                                                                 const VerifierOptions&,              \
                                                                 std::mt19937_64&);                   \
  template void network_forward<Scalar>(const Matrix<Scalar>&, const TokenBatch&,                     \
                                        const VerifierNetwork<Scalar>&, Matrix<Scalar>&,              \
                                        VerifierCache<Scalar>&);                                      \
  template void network_backward<Scalar>(const VerifierCache<Scalar>&, const VerifierNetwork<Scalar>&, \
                                         const Matrix<Scalar>&, Matrix<Scalar>&);
CLAIMRAG_INSTANTIATE(float)
CLAIMRAG_INSTANTIATE(double)
#undef CLAIMRAG_INSTANTIATE

}  // namespace claimrag::verifier
