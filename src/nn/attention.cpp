#include "claimrag/nn/attention.hpp"

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/nn/matrix_products.hpp"

namespace claimrag::nn {

template <typename Scalar>
MultiHeadAttention<Scalar> make_attention(ParameterRegistry<Scalar>& registry, const std::string& name,
                                          Eigen::Index d, Eigen::Index heads, std::mt19937_64& rng) {
  if (heads < 1 || d % heads != 0) throw InternalError("make_attention: d_model must be a multiple of heads");
  MultiHeadAttention<Scalar> layer;
  layer.query = make_linear(registry, name + ".query", d, d, rng);
  layer.key = make_linear(registry, name + ".key", d, d, rng);
  layer.value = make_linear(registry, name + ".value", d, d, rng);
  layer.output = make_linear(registry, name + ".output", d, d, rng);
  layer.heads = heads;
  return layer;
}

namespace {

void check_shape(Eigen::Index rows, const std::vector<Eigen::Index>& lengths, const AttentionShape& shape) {
  if (shape.query_len < 1 || shape.query_len > shape.seq_len || rows != shape.batch * shape.seq_len ||
      static_cast<Eigen::Index>(lengths.size()) != shape.batch) {
    throw InternalError("attention_forward: input does not match the shape");
  }
  for (const Eigen::Index length : lengths) {
    if (length < 1 || length > shape.seq_len) throw InternalError("attention_forward: length out of range");
  }
}

}  // namespace

template <typename Scalar>
void attention_forward(const Matrix<Scalar>& x, const std::vector<Eigen::Index>& lengths,
                       const AttentionShape& shape, const MultiHeadAttention<Scalar>& layer,
                       Matrix<Scalar>& y, AttentionCache<Scalar>& cache) {
  // x: B·T × d, queries: B·q × d, keys/values: B·T × d, weights: B·H·q × T, y: B·q × d
  check_shape(x.rows(), lengths, shape);
  const Eigen::Index B = shape.batch, T = shape.seq_len, q = shape.query_len, H = layer.heads;
  const Eigen::Index d = x.cols(), dh = d / H;
  cache.shape = shape;
  cache.lengths = lengths;
  cache.input = x;
  if (q == T) {
    cache.query_input = x;
  } else {
    cache.query_input.resize(B * q, d);
    for (Eigen::Index b = 0; b < B; ++b) cache.query_input.middleRows(b * q, q) = x.middleRows(b * T, q);
  }
  linear_forward(cache.query_input, layer.query, cache.queries);
  linear_forward(x, layer.key, cache.keys);
  linear_forward(x, layer.value, cache.values);
  cache.weights = Matrix<Scalar>::Zero(B * H * q, T);
  cache.context.resize(B * q, d);
  const Scalar scale = Scalar(1) / std::sqrt(static_cast<Scalar>(dh));
  Matrix<Scalar> scores;
  for (Eigen::Index b = 0; b < B; ++b) {
    const Eigen::Index L = lengths[static_cast<std::size_t>(b)];
    for (Eigen::Index h = 0; h < H; ++h) {
      scores.resize(q, L);
      multiply(cache.queries.block(b * q, h * dh, q, dh), Operand::plain, cache.keys.block(b * T, h * dh, L, dh),
               Operand::transposed, scores, Start::zero);
      scores *= scale;
      for (Eigen::Index i = 0; i < q; ++i) {
        scores.row(i).array() = (scores.row(i).array() - scores.row(i).maxCoeff()).exp();
        scores.row(i) /= scores.row(i).sum();
      }
      cache.weights.block((b * H + h) * q, 0, q, L) = scores;
      multiply(scores, Operand::plain, cache.values.block(b * T, h * dh, L, dh), Operand::plain,
               cache.context.block(b * q, h * dh, q, dh), Start::zero);
    }
  }
  linear_forward(cache.context, layer.output, y);
}

template <typename Scalar>
void attention_backward(const AttentionCache<Scalar>& cache, const MultiHeadAttention<Scalar>& layer,
                        const Matrix<Scalar>& dy, Matrix<Scalar>& dx) {
  // dy: B·q × d, dcontext/dqueries: B·q × d, dkeys/dvalues/dx: B·T × d
  const Eigen::Index B = cache.shape.batch, T = cache.shape.seq_len, q = cache.shape.query_len;
  const Eigen::Index H = layer.heads, d = cache.input.cols(), dh = d / H;
  Matrix<Scalar> dcontext = Matrix<Scalar>::Zero(B * q, d);
  linear_backward(cache.context, layer.output, dy, &dcontext);
  Matrix<Scalar> dqueries = Matrix<Scalar>::Zero(B * q, d);
  Matrix<Scalar> dkeys = Matrix<Scalar>::Zero(B * T, d);
  Matrix<Scalar> dvalues = Matrix<Scalar>::Zero(B * T, d);
  const Scalar scale = Scalar(1) / std::sqrt(static_cast<Scalar>(dh));
  Matrix<Scalar> dscores;
  for (Eigen::Index b = 0; b < B; ++b) {
    const Eigen::Index L = cache.lengths[static_cast<std::size_t>(b)];
    for (Eigen::Index h = 0; h < H; ++h) {
      const auto weights = cache.weights.block((b * H + h) * q, 0, q, L);
      const auto dcontext_bh = dcontext.block(b * q, h * dh, q, dh);
      multiply(weights, Operand::transposed, dcontext_bh, Operand::plain, dvalues.block(b * T, h * dh, L, dh),
               Start::output);
      dscores.resize(q, L);
      multiply(dcontext_bh, Operand::plain, cache.values.block(b * T, h * dh, L, dh), Operand::transposed, dscores,
               Start::zero);
      // Softmax backward: dS = P ⊙ (dP - rowsum(P ⊙ dP)).
      for (Eigen::Index i = 0; i < q; ++i) {
        const Scalar centre = weights.row(i).dot(dscores.row(i));
        dscores.row(i).array() = weights.row(i).array() * (dscores.row(i).array() - centre) * scale;
      }
      multiply(dscores, Operand::plain, cache.keys.block(b * T, h * dh, L, dh), Operand::plain,
               dqueries.block(b * q, h * dh, q, dh), Start::output);
      multiply(dscores, Operand::transposed, cache.queries.block(b * q, h * dh, q, dh), Operand::plain,
               dkeys.block(b * T, h * dh, L, dh), Start::output);
    }
  }
  linear_backward(cache.input, layer.key, dkeys, &dx);
  linear_backward(cache.input, layer.value, dvalues, &dx);
  if (q == T) {
    linear_backward(cache.query_input, layer.query, dqueries, &dx);
  } else {
    Matrix<Scalar> dquery_input = Matrix<Scalar>::Zero(B * q, d);
    linear_backward(cache.query_input, layer.query, dqueries, &dquery_input);
    for (Eigen::Index b = 0; b < B; ++b) dx.middleRows(b * T, q) += dquery_input.middleRows(b * q, q);
  }
}

#define CLAIMRAG_INSTANTIATE(Scalar)                                                                 \
  template MultiHeadAttention<Scalar> make_attention<Scalar>(ParameterRegistry<Scalar>&,             \
                                                             const std::string&, Eigen::Index,      \
                                                             Eigen::Index, std::mt19937_64&);       \
  template void attention_forward<Scalar>(const Matrix<Scalar>&, const std::vector<Eigen::Index>&,   \
                                          const AttentionShape&, const MultiHeadAttention<Scalar>&,  \
                                          Matrix<Scalar>&, AttentionCache<Scalar>&);                 \
  template void attention_backward<Scalar>(const AttentionCache<Scalar>&,                            \
                                           const MultiHeadAttention<Scalar>&, const Matrix<Scalar>&, \
                                           Matrix<Scalar>&);
CLAIMRAG_INSTANTIATE(float)
CLAIMRAG_INSTANTIATE(double)
#undef CLAIMRAG_INSTANTIATE

}  // namespace claimrag::nn
