#pragma once
// Reranking with a pretrained cross-encoder, as `claimrag rerank --cross-encoder DIR` runs it:
// each (claim, document) pair of a run's top rerank_depth, the claim first and the document's
// title + " " + text second, gets the checkpoint's relevance: for a one-logit head the logistic
// of the logit (as sentence-transformers' CrossEncoder reports it; the order is the logit's), for
// a classification head the softmax probability of the label named by `label` (required there:
// the message lists the checkpoint's labels). The head is reordered by that probability (ties
// in input order), the rest keep their order with scores −1, −2, ... (rerank::reorder_by_probability).
// Every pair of the run is scored in one batched call: the same bytes for any thread count.
//
// With `served` set (`--cross-encoder tei:URL`), the relevances come from Text Embeddings
// Inference's /rerank (served/tei.hpp) instead of a folder: the claim is the query, the documents'
// texts are the texts, in requests of at most batch_size, and the score is TEI's (with raw scores
// off, the logistic of a one-logit reranker's logit: the same as a folder's). The ranking rules
// are the same. A classification head's --label does not apply there (TEI's /rerank serves
// one-logit rerankers).

#include <cstddef>
#include <filesystem>
#include <string>

#include "claimrag/run/run.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/shard/shard_selection.hpp"

namespace claimrag::experiment {

struct CrossEncoderRequest {
  std::filesystem::path beir_folder;
  std::filesystem::path run_file;
  std::filesystem::path out_file;
  std::filesystem::path cross_encoder;  ///< the checkpoint folder (empty when served)
  std::string label;                    ///< a classification head's label scored; empty for a one-logit head
  std::size_t rerank_depth = 50;
  std::size_t max_length = 0;           ///< tokens per pair; 0: the model's limit
  std::size_t batch_size = 32;
  served::ServedOptions served = {};    ///< served.endpoint.url set: TEI's /rerank at that URL
  shard::ShardSelection* shard = nullptr;  ///< the shard of the run's queries to rerank; nullptr: all
};

/// Reranks as described above. UsageError naming the folder for an embedding model, for a
/// classification head without `label` or with one it lacks, and for a label given to a
/// one-logit head, and for a label given with `served`; DataError naming the run file for a query
/// or document missing from the data, and naming the URL for a failed request.
run::Run rerank_with_cross_encoder(const CrossEncoderRequest& request);

/// rerank_with_cross_encoder, then the run written to request.out_file.
void run_cross_encoder_rerank(const CrossEncoderRequest& request);

}  // namespace claimrag::experiment
