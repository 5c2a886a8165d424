#pragma once
// Reranking with a pretrained cross-encoder, as `claimrag rerank --cross-encoder DIR` runs it:
// each (claim, document) pair of a run's top rerank_depth, the claim first and the document's
// title + " " + text second, gets the checkpoint's relevance: for a one-logit head the logistic
// of the logit (as sentence-transformers' CrossEncoder reports it; the order is the logit's), for
// a classification head the softmax probability of the label named by `label` (required there:
// the message lists the checkpoint's labels). The head is reordered by that probability (ties
// in input order), the rest keep their order with scores −1, −2, ... (rerank::reorder_by_probability).
// Every pair of the run is scored in one batched call: the same bytes for any thread count.

#include <cstddef>
#include <filesystem>
#include <string>

#include "claimrag/run/run.hpp"

namespace claimrag::experiment {

struct CrossEncoderRequest {
  std::filesystem::path beir_folder;
  std::filesystem::path run_file;
  std::filesystem::path out_file;
  std::filesystem::path cross_encoder;  ///< the checkpoint folder
  std::string label;                    ///< a classification head's label scored; empty for a one-logit head
  std::size_t rerank_depth = 50;
  std::size_t max_length = 0;           ///< tokens per pair; 0: the model's limit
  std::size_t batch_size = 32;
};

/// Reranks as described above. UsageError naming the folder for an embedding model, for a
/// classification head without `label` or with one it lacks, and for a label given to a
/// one-logit head; DataError naming the run file for a query or document missing from the data.
run::Run rerank_with_cross_encoder(const CrossEncoderRequest& request);

/// rerank_with_cross_encoder, then the run written to request.out_file.
void run_cross_encoder_rerank(const CrossEncoderRequest& request);

}  // namespace claimrag::experiment
