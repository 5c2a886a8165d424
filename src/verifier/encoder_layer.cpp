#include "claimrag/verifier/encoder_layer.hpp"

namespace claimrag::verifier {

using nn::Matrix;

template <typename Scalar>
EncoderLayer<Scalar> make_encoder_layer(nn::ParameterRegistry<Scalar>& registry, const std::string& name,
                                        Eigen::Index d, Eigen::Index heads, Eigen::Index d_ff,
                                        std::mt19937_64& rng) {
  EncoderLayer<Scalar> layer;
  layer.attention = nn::make_attention(registry, name + ".attention", d, heads, rng);
  layer.attention_norm = nn::make_layer_norm(registry, name + ".attention_norm", d);
  layer.feed_forward = nn::make_feed_forward(registry, name + ".feed_forward", d, d_ff, rng);
  layer.output_norm = nn::make_layer_norm(registry, name + ".output_norm", d);
  return layer;
}

template <typename Scalar>
void encoder_layer_forward(const Matrix<Scalar>& x, const std::vector<Eigen::Index>& lengths,
                           const nn::AttentionShape& shape, const EncoderLayer<Scalar>& layer,
                           Matrix<Scalar>& y, EncoderLayerCache<Scalar>& cache) {
  // x: B·T × d, attended/hidden/y: B·q × d
  Matrix<Scalar> attended;
  nn::attention_forward(x, lengths, shape, layer.attention, attended, cache.attention);
  attended += cache.attention.query_input;
  nn::layer_norm_forward(attended, layer.attention_norm, cache.hidden, cache.attention_norm);
  Matrix<Scalar> transformed;
  nn::feed_forward_forward(cache.hidden, layer.feed_forward, transformed, cache.feed_forward);
  transformed += cache.hidden;
  nn::layer_norm_forward(transformed, layer.output_norm, y, cache.output_norm);
}

template <typename Scalar>
void encoder_layer_backward(const EncoderLayerCache<Scalar>& cache, const EncoderLayer<Scalar>& layer,
                            const Matrix<Scalar>& dy, Matrix<Scalar>& dx) {
  // dy: B·q × d, dtransformed/dhidden/dattended: B·q × d, dx: B·T × d
  const nn::AttentionShape& shape = cache.attention.shape;
  const Eigen::Index rows = dy.rows(), d = dy.cols();
  Matrix<Scalar> dtransformed = Matrix<Scalar>::Zero(rows, d);
  nn::layer_norm_backward(cache.output_norm, layer.output_norm, dy, dtransformed);
  Matrix<Scalar> dhidden = dtransformed;
  nn::feed_forward_backward(cache.feed_forward, layer.feed_forward, dtransformed, dhidden);
  Matrix<Scalar> dattended = Matrix<Scalar>::Zero(rows, d);
  nn::layer_norm_backward(cache.attention_norm, layer.attention_norm, dhidden, dattended);
  for (Eigen::Index b = 0; b < shape.batch; ++b) {
    dx.middleRows(b * shape.seq_len, shape.query_len) += dattended.middleRows(b * shape.query_len, shape.query_len);
  }
  nn::attention_backward(cache.attention, layer.attention, dattended, dx);
}

#define CLAIMRAG_INSTANTIATE(Scalar)                                                                  \
  template EncoderLayer<Scalar> make_encoder_layer<Scalar>(nn::ParameterRegistry<Scalar>&,            \
                                                           const std::string&, Eigen::Index,         \
                                                           Eigen::Index, Eigen::Index,               \
                                                           std::mt19937_64&);                        \
  template void encoder_layer_forward<Scalar>(const Matrix<Scalar>&, const std::vector<Eigen::Index>&, \
                                              const nn::AttentionShape&, const EncoderLayer<Scalar>&,  \
                                              Matrix<Scalar>&, EncoderLayerCache<Scalar>&);            \
  template void encoder_layer_backward<Scalar>(const EncoderLayerCache<Scalar>&,                      \
                                               const EncoderLayer<Scalar>&, const Matrix<Scalar>&,    \
                                               Matrix<Scalar>&);
CLAIMRAG_INSTANTIATE(float)
CLAIMRAG_INSTANTIATE(double)
#undef CLAIMRAG_INSTANTIATE

}  // namespace claimrag::verifier
