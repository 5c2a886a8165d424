#pragma once
// Dense retrieval with a pretrained sentence encoder (a Hugging Face folder with the
// sentence-transformers modules.json and pooling: BERT-style bge, e5, MiniLM, ...), as
// `claimrag index --method dense --encoder DIR` and `claimrag retrieve --method dense` run it.
//
// Index: every document's title + " " + text, after the passage prefix, is encoded with the
// folder's pooling (and normalisation when listed) and stored with the corpus checksum and the
// encoder's identity in <out>/encoder-documents.safetensors; <out>/encoder.json records the
// encoder (checkpoint_files_record: folder, config.json, weight checksums; the model and
// tokenizer read; both prefixes; the maximum length). meta.json as every index.
// Retrieve: the index's encoder (the folder recorded, or the one given, which must have the same
// weight checksums) encodes each query after the query prefix (the one given, else the one
// recorded); documents rank by the dot product (the cosine for normalising encoders), ties to
// the earlier document of the corpus. Encoding and search give the same bytes for any thread count.
//
// Served (`--encoder tei:URL`, settings.served.endpoint.url set): the texts are embedded by Text
// Embeddings Inference's /embed (served/tei.hpp) in requests of at most batch_size, with the same
// prefixes. encoder.json then records {"served": "tei:URL", "dimension", both prefixes,
// "batch_size"} (the URL, never a key) and the vectors' file the URL instead of weight checksums.
// Retrieve embeds the queries through the recorded URL, or the one given again, and refuses
// vectors of another dimension than the index's (DataError naming the index's file); a folder
// given for a served index, or a URL for a folder's, is a UsageError.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/served/served_options.hpp"

namespace claimrag::experiment {

inline constexpr const char* kEncoderDocumentsFile = "encoder-documents.safetensors";
inline constexpr const char* kEncoderRecordFile = "encoder.json";

struct EncoderSettings {
  std::filesystem::path encoder;              ///< the checkpoint folder (index: required; retrieve: optional)
  std::optional<std::string> query_prefix;    ///< e.g. "query: " (e5), bge's instruction
  std::optional<std::string> passage_prefix;  ///< e.g. "passage: " (e5)
  std::size_t max_length = 0;                 ///< tokens per text; 0: the model's limit
  std::size_t batch_size = 32;
  served::ServedOptions served = {};          ///< served.endpoint.url set: TEI's /embed instead of a folder
};

/// True when `index_folder` holds an index written by index_with_encoder.
bool is_encoder_index(const std::filesystem::path& index_folder);

/// True when `index_folder` holds an index embedded by a served model (encoder.json names one).
/// DataError naming encoder.json when it is there but not JSON.
bool is_served_encoder_index(const std::filesystem::path& index_folder);

/// Encodes the corpus of `beir_folder` into `out_folder`. UsageError naming the folder when the
/// encoder has no embedding head (a classifier or reranker).
void index_with_encoder(const std::filesystem::path& beir_folder, const std::filesystem::path& out_folder,
                        const EncoderSettings& settings, const ExperimentConfig& config);

/// The top `k` documents of each query. DataError naming the file when the index was built from
/// another corpus, or `settings.encoder` has other weights than the index's encoder.
run::Run retrieve_with_encoder(const std::filesystem::path& beir_folder, const std::filesystem::path& index_folder,
                               const std::vector<dataset::Query>& queries, const EncoderSettings& settings, std::size_t k);

}  // namespace claimrag::experiment
