#pragma once
// A lookup table of learned vectors, one row per id (tokens, positions, segments).

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::nn {

/// table: rows × d.
template <typename Scalar>
struct Embedding {
  Parameter<Scalar>* table = nullptr;
};

/// Registers `<name>.table` (rows × d) drawn from N(0, stddev²).
template <typename Scalar>
Embedding<Scalar> make_embedding(ParameterRegistry<Scalar>& registry, const std::string& name,
                                 Eigen::Index rows, Eigen::Index d, double stddev, std::mt19937_64& rng);

/// Adds table row ids[i] into out.row(i) for every i; out is n × d with n = ids.size(). Adding
/// (not assigning) lets token, position and segment embeddings sum without temporaries.
/// Throws InternalError for an id outside [0, rows).
template <typename Scalar>
void embedding_forward(const std::vector<std::int32_t>& ids, const Embedding<Scalar>& layer,
                       Matrix<Scalar>& out);

/// Adds dout.row(i) (dout: n × d) into table.grad.row(ids[i]), in increasing i, so repeated ids
/// accumulate in a fixed order.
template <typename Scalar>
void embedding_backward(const std::vector<std::int32_t>& ids, const Embedding<Scalar>& layer,
                        const Matrix<Scalar>& dout);

}  // namespace claimrag::nn
