#pragma once
// The one registry of trainable parameters. Zeroing gradients, Adam, saving, loading and the
// gradient checks all walk it, so a new layer cannot be forgotten by any of them.
//
// Every model is templated on its scalar: float for training and inference, double for the
// finite-difference gradient checks.

#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace claimrag::nn {

template <typename Scalar>
using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename Scalar>
using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
template <typename Scalar>
using RowVector = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;

/// A named trainable tensor (stored as a row-major matrix; a bias is a 1×n matrix) with the
/// gradient buffer that backward passes add into.
template <typename Scalar>
struct Parameter {
  std::string name;
  Matrix<Scalar> value;
  Matrix<Scalar> grad;
};

/// Owns the parameters of one model, in registration order (which fixes the order of
/// initialisation draws and of saved tensors). Returned references stay valid for the
/// registry's lifetime.
template <typename Scalar>
class ParameterRegistry {
 public:
  /// Registers a rows×cols parameter, zero-initialised, with a zero gradient. Names are unique.
  Parameter<Scalar>& add(const std::string& name, Eigen::Index rows, Eigen::Index cols);

  void zero_grad();
  [[nodiscard]] std::size_t size() const { return parameters_.size(); }
  /// Total number of scalars over all parameters.
  [[nodiscard]] std::size_t scalar_count() const;
  Parameter<Scalar>& operator[](std::size_t i) { return *parameters_[i]; }
  const Parameter<Scalar>& operator[](std::size_t i) const { return *parameters_[i]; }
  /// The parameter of that name; throws InternalError when absent.
  Parameter<Scalar>& find(const std::string& name);
  const Parameter<Scalar>& find(const std::string& name) const;

 private:
  std::vector<std::unique_ptr<Parameter<Scalar>>> parameters_;
};

/// Fills `value` with draws from N(0, stddev²) in row-major order from `rng`.
template <typename Scalar>
void init_normal(Matrix<Scalar>& value, double stddev, std::mt19937_64& rng);

/// Fills `value` with draws from U(-bound, bound) in row-major order from `rng`.
template <typename Scalar>
void init_uniform(Matrix<Scalar>& value, double bound, std::mt19937_64& rng);

}  // namespace claimrag::nn
