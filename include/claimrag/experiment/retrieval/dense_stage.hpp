#pragma once
// The dense stages as the command line and the reproduction run them: train the dual encoder on
// the training split's qrels pairs and encode the corpus; then retrieve by exact dot product.

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/dense/search.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::experiment {

inline constexpr const char* kDenseModelFile = "dense.safetensors";
inline constexpr const char* kDenseDocumentsFile = "dense-documents.safetensors";

/// Trains on the (query, relevant document) pairs of config.data.train_split, with a vocabulary
/// of the corpus (title + " " + text) and the training queries; saves the model and the encoded
/// corpus into `out_folder` with meta.json (per-epoch losses included).
void index_dense(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                 const ExperimentConfig& config);

/// The top `k` documents per query by dot product with the model in `index_folder`, whose
/// options must equal the config's and whose document matrix must have one row per corpus
/// document. Ties: the earlier corpus document first. The run's tag is "dense".
run::Run retrieve_dense(const std::filesystem::path& beir_folder, const std::filesystem::path& index_folder,
                        const std::vector<dataset::Query>& queries, const ExperimentConfig& config, std::size_t k);

/// The run of `hits` (dense::search_top_k's, one list per query, rows of the corpus): each
/// query's documents by id with their scores, in hit order, tagged `tag`.
run::Run run_from_hits(const dataset::Corpus& corpus, const std::vector<dataset::Query>& queries,
                       const std::vector<std::vector<dense::ScoredDocument>>& hits, const std::string& tag);

}  // namespace claimrag::experiment
