#include "claimrag/nn/embedding.hpp"

#include "claimrag/error.hpp"

namespace claimrag::nn {

template <typename Scalar>
Embedding<Scalar> make_embedding(ParameterRegistry<Scalar>& registry, const std::string& name,
                                 Eigen::Index rows, Eigen::Index d, double stddev, std::mt19937_64& rng) {
  Embedding<Scalar> layer;
  layer.table = &registry.add(name + ".table", rows, d);
  init_normal(layer.table->value, stddev, rng);
  return layer;
}

template <typename Scalar>
void embedding_forward(const std::vector<std::int32_t>& ids, const Embedding<Scalar>& layer,
                       Matrix<Scalar>& out) {
  // ids: n, table: rows × d, out: n × d
  const auto& table = layer.table->value;
  if (out.rows() != static_cast<Eigen::Index>(ids.size()) || out.cols() != table.cols()) {
    throw InternalError("embedding_forward: output shape does not match the ids and the table");
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= table.rows()) throw InternalError("embedding_forward: id out of range");
    out.row(static_cast<Eigen::Index>(i)) += table.row(ids[i]);
  }
}

template <typename Scalar>
void embedding_backward(const std::vector<std::int32_t>& ids, const Embedding<Scalar>& layer,
                        const Matrix<Scalar>& dout) {
  // ids: n, dout: n × d, table.grad: rows × d
  auto& grad = layer.table->grad;
  for (std::size_t i = 0; i < ids.size(); ++i) grad.row(ids[i]) += dout.row(static_cast<Eigen::Index>(i));
}

#define CLAIMRAG_INSTANTIATE(Scalar)                                                                \
  template Embedding<Scalar> make_embedding<Scalar>(ParameterRegistry<Scalar>&, const std::string&, \
                                                    Eigen::Index, Eigen::Index, double,            \
                                                    std::mt19937_64&);                              \
  template void embedding_forward<Scalar>(const std::vector<std::int32_t>&, const Embedding<Scalar>&, \
                                          Matrix<Scalar>&);                                         \
  template void embedding_backward<Scalar>(const std::vector<std::int32_t>&,                        \
                                           const Embedding<Scalar>&, const Matrix<Scalar>&);
CLAIMRAG_INSTANTIATE(float)
CLAIMRAG_INSTANTIATE(double)
#undef CLAIMRAG_INSTANTIATE

}  // namespace claimrag::nn
