#include "claimrag/dense/dual_encoder.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/nn/l2_normalize.hpp"

namespace claimrag::dense {

std::string options_text(const DenseOptions& options) {
  // nlohmann::json orders keys, and doubles print in shortest round-trip form: one text per
  // set of options.
  const nlohmann::json json = {{"dimension", options.dimension},
                               {"max_query_tokens", options.max_query_tokens},
                               {"max_document_tokens", options.max_document_tokens},
                               {"temperature", options.temperature},
                               {"learning_rate", options.learning_rate},
                               {"batch_size", options.batch_size},
                               {"epochs", options.epochs},
                               {"seed", options.seed},
                               {"shared_towers", options.shared_towers},
                               {"init_stddev", options.init_stddev}};
  return json.dump();
}

std::string options_fingerprint(const DenseOptions& options) { return io::checksum_hex(options_text(options)); }

template <typename Scalar>
DualEncoder<Scalar>::DualEncoder(std::int32_t vocabulary_size, const DenseOptions& options)
    : options_(options), vocabulary_size_(vocabulary_size) {
  if (vocabulary_size <= 0) throw UsageError("dense model: the vocabulary is empty");
  if (options.dimension <= 0 || options.max_query_tokens <= 0 || options.max_document_tokens <= 0 ||
      options.batch_size <= 0 || options.epochs < 0 || !(options.temperature > 0) ||
      !(options.learning_rate > 0) || !(options.init_stddev > 0)) {
    throw UsageError("dense model: sizes, temperature, learning rate and init stddev must be positive");
  }
  if (options.shared_towers) {
    registry_.add("token_embedding", vocabulary_size, options.dimension);
  } else {
    registry_.add("query_embedding", vocabulary_size, options.dimension);
    registry_.add("document_embedding", vocabulary_size, options.dimension);
  }
}

template <typename Scalar>
void DualEncoder<Scalar>::initialise(std::mt19937_64& rng) {
  for (std::size_t i = 0; i < registry_.size(); ++i) nn::init_normal(registry_[i].value, options_.init_stddev, rng);
}

template <typename Scalar>
std::size_t DualEncoder<Scalar>::table_index(Tower tower) const {
  return options_.shared_towers || tower == Tower::query ? 0 : 1;
}

template <typename Scalar>
std::size_t DualEncoder<Scalar>::max_tokens(Tower tower) const {
  return static_cast<std::size_t>(tower == Tower::query ? options_.max_query_tokens : options_.max_document_tokens);
}

template <typename Scalar>
nn::TokenBags DualEncoder<Scalar>::bags(const std::vector<std::vector<std::int32_t>>& texts,
                                        const std::vector<std::size_t>& selection, Tower tower) const {
  const std::size_t limit = max_tokens(tower);
  nn::TokenBags result;
  for (const std::size_t i : selection) {
    const auto& ids = texts.at(i);
    result.add(std::span<const std::int32_t>(ids.data(), std::min(ids.size(), limit)));
  }
  return result;
}

template <typename Scalar>
nn::Matrix<Scalar> DualEncoder<Scalar>::encode(const std::vector<std::vector<std::int32_t>>& texts,
                                               Tower tower) const {
  std::vector<std::size_t> all(texts.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  nn::Matrix<Scalar> pooled;
  nn::embedding_bag_mean_forward(table(tower), bags(texts, all, tower), pooled);
  nn::Matrix<Scalar> normalised;
  nn::L2NormalizeCache<Scalar> cache;
  nn::l2_normalize_forward(pooled, normalised, cache);
  return normalised;
}

template class DualEncoder<float>;
template class DualEncoder<double>;

}  // namespace claimrag::dense
