#pragma once
// The dense stages as the command line and the reproduction run them: train the dual encoder on
// the training split's qrels pairs and encode the corpus; then retrieve by exact dot product.

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/dense/dual_encoder.hpp"
#include "claimrag/dense/search.hpp"
#include "claimrag/dense/vocabulary.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::experiment {

inline constexpr const char* kDenseModelFile = "dense.safetensors";
inline constexpr const char* kDenseDocumentsFile = "dense-documents.safetensors";

/// A dual encoder ready to retrieve: the model, its vocabulary, the corpus it encoded (one row
/// per document) and those documents' ids by row.
struct DenseIndex {
  dense::Vocabulary vocabulary;
  dense::DualEncoder<float> model;
  nn::Matrix<float> documents;
  std::vector<std::string> document_ids;
};

/// Trains on the (query, relevant document) pairs of config.data.train_split, with a vocabulary
/// of the corpus (title + " " + text) and the training queries; saves the model and the encoded
/// corpus into `out_folder` with meta.json (per-epoch losses included). Returns what it saved, so
/// that the reproduction's later stages retrieve with it without reading it back.
DenseIndex index_dense(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                       const ExperimentConfig& config);

/// Loads the index saved in `index_folder`: its options must equal the config's, it must have
/// been trained on the corpus in `beir_folder` (checked by checksum) and its document matrix must
/// have one row per corpus document; a DataError naming the file otherwise.
DenseIndex load_dense_index(const std::filesystem::path& beir_folder, const std::filesystem::path& index_folder,
                            const ExperimentConfig& config);

/// The top `k` documents per query by dot product. Ties: the earlier corpus document first. The
/// run's tag is "dense".
run::Run retrieve_dense(const DenseIndex& index, const std::vector<dataset::Query>& queries, std::size_t k);

/// The run of `hits` (dense::search_top_k's, one list per query, rows of the corpus): each
/// query's documents by id with their scores, in hit order, tagged `tag`.
run::Run run_from_hits(const dataset::Corpus& corpus, const std::vector<dataset::Query>& queries,
                       const std::vector<std::vector<dense::ScoredDocument>>& hits, const std::string& tag);
/// The same, with the documents' ids by row.
run::Run run_from_hits(const std::vector<std::string>& document_ids, const std::vector<dataset::Query>& queries,
                       const std::vector<std::vector<dense::ScoredDocument>>& hits, const std::string& tag);

}  // namespace claimrag::experiment
