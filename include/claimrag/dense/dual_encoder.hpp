#pragma once
// The paper's dense dual encoder: a text is the L2-normalised mean of learned token embeddings.
//
// Decisions the paper leaves open (each one a field of DenseOptions where it can vary):
// - Towers: shared by default. Queries and documents look words up in one table, so a query
//   word learns from the documents it appears in; with 919 training pairs, a separate query
//   table would leave most query words at their random initial rows. `shared_towers = false`
//   gives two tables ("query_embedding", "document_embedding") for comparison (SciFact test
//   nDCG@10: 0.556 shared, 0.444 separate; the paper reports 0.537).
// - Initialisation: N(0, 1) per entry, torch.nn.Embedding's default, drawn in registration
//   order (row-major) from the generator passed in. The scale is irrelevant to the forward
//   pass (rows are normalised after pooling) but sets how far lr 2e-3 moves a row: with
//   init_stddev 0.1 training moves rows ten times further relative to their size and SciFact
//   nDCG@10 rises to 0.653, well above the paper's, which N(0, 1) reproduces.
// - Truncation keeps the first max_query_tokens / max_document_tokens known tokens
//   (see Vocabulary: unknown tokens are dropped before truncation).
// - An empty text (no known token) encodes to the zero vector.

#include <cstdint>
#include <string>
#include <vector>

#include "claimrag/nn/embedding_bag.hpp"
#include "claimrag/nn/parameter.hpp"

namespace claimrag::dense {

/// Everything that defines a dense model and its training; the experiment config fills it.
struct DenseOptions {
  int dimension = 128;
  int max_query_tokens = 64;
  int max_document_tokens = 256;  ///< of title + " " + text
  double temperature = 0.05;      ///< logits = Q·Dᵀ / temperature
  double learning_rate = 2e-3;    ///< Adam, betas (0.9, 0.999), eps 1e-8, as torch's defaults
  int batch_size = 128;
  int epochs = 40;
  std::uint64_t seed = 42;  ///< initialisation, then shuffling, from one std::mt19937_64
  bool shared_towers = true;
  double init_stddev = 1.0;
  bool quiet = false;  ///< no per-epoch progress lines
};

/// Which side of the dual encoder a text goes through.
enum class Tower { query, document };

/// A canonical text of every option that changes the trained model (`quiet` excluded), and its
/// xxh64: the "config hash" a saved model carries.
std::string options_text(const DenseOptions& options);
std::string options_fingerprint(const DenseOptions& options);

/// The model's parameters: one vocabulary_size × dimension table ("token_embedding"), or two
/// when the towers are separate. Scalar is float for training and double for gradient checks.
template <typename Scalar>
class DualEncoder {
 public:
  /// Registers zero tables; call initialise() (or load values) before use.
  /// UsageError unless vocabulary_size > 0 and every size option is positive.
  DualEncoder(std::int32_t vocabulary_size, const DenseOptions& options);

  /// Draws every table entry from N(0, init_stddev²), in registration order, from `rng`.
  void initialise(std::mt19937_64& rng);

  /// The table(s), for Adam, saving, loading and the gradient checks.
  [[nodiscard]] nn::ParameterRegistry<Scalar>& parameters() { return registry_; }
  [[nodiscard]] const nn::ParameterRegistry<Scalar>& parameters() const { return registry_; }
  /// Registry index of the table `tower` reads (the same for both when shared).
  [[nodiscard]] std::size_t table_index(Tower tower) const;
  /// vocabulary_size × dimension, the table `tower` reads.
  [[nodiscard]] const nn::Matrix<Scalar>& table(Tower tower) const { return registry_[table_index(tower)].value; }
  [[nodiscard]] const DenseOptions& options() const { return options_; }
  [[nodiscard]] std::int32_t vocabulary_size() const { return vocabulary_size_; }
  /// max_query_tokens or max_document_tokens.
  [[nodiscard]] std::size_t max_tokens(Tower tower) const;

  /// The texts `selection` of `texts` (token ids in [0, vocabulary_size)), truncated for
  /// `tower`, as bags for the embedding bag.
  [[nodiscard]] nn::TokenBags bags(const std::vector<std::vector<std::int32_t>>& texts,
                                   const std::vector<std::size_t>& selection, Tower tower) const;
  /// texts.size() × dimension, row i the normalised embedding of texts[i] through `tower`
  /// (a zero row for a text without tokens). Rows are computed in parallel, identically to one
  /// thread.
  [[nodiscard]] nn::Matrix<Scalar> encode(const std::vector<std::vector<std::int32_t>>& texts,
                                          Tower tower) const;

 private:
  DenseOptions options_;
  std::int32_t vocabulary_size_;
  nn::ParameterRegistry<Scalar> registry_;
};

}  // namespace claimrag::dense
