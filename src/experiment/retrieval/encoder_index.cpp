#include "claimrag/experiment/retrieval/encoder_index.hpp"

#include <spdlog/spdlog.h>

#include <optional>

#include "claimrag/dense/search.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/experiment/retrieval/dense_stage.hpp"
#include "claimrag/experiment/meta.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/nn/safetensors.hpp"
#include "claimrag/pretrained/precision.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/served/tei.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

constexpr const char* kDocumentsTensor = "documents";

// The encoder's identity as the index stores it: its weight files' checksums, one JSON line.
std::string weights_identity(const fs::path& folder) {
  return pretrained::checkpoint_files_record(folder)["weights_xxh64"].dump();
}

const pretrained::TextModel& require_embeddings(const pretrained::TextModel& model) {
  model.model().require_head(pretrained::HeadKind::embedding,
                             "a dense encoder needs sentence embeddings (a sentence-transformers folder with modules.json)");
  return model;
}

nn::Matrix<float> matrix_of(const std::vector<std::vector<float>>& vectors) {
  const auto dimension = static_cast<Eigen::Index>(vectors.empty() ? 0 : vectors.front().size());
  nn::Matrix<float> matrix(static_cast<Eigen::Index>(vectors.size()), dimension);
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    for (Eigen::Index j = 0; j < dimension; ++j) matrix(static_cast<Eigen::Index>(i), j) = vectors[i][static_cast<std::size_t>(j)];
  }
  return matrix;
}

// The texts' embeddings from TEI's /embed at settings.served's URL, every request in one call.
nn::Matrix<float> embed_served(const std::vector<std::string>& texts, const EncoderSettings& settings) {
  const auto transport = served::open_transport(settings.served);
  return matrix_of(served::tei_embed(*transport, texts, settings.batch_size));
}

nn::Matrix<float> encode(const pretrained::TextModel& model, const std::vector<std::string>& texts, const EncoderSettings& settings,
                         const std::string& source) {
  std::vector<pretrained::TextInput> inputs;
  inputs.reserve(texts.size());
  for (const auto& text : texts) inputs.push_back({text, std::nullopt});
  const auto outputs = model.run(inputs, settings.max_length, settings.batch_size, source);
  std::size_t truncated = 0;
  for (const std::size_t t : outputs.truncated_tokens) truncated += t > 0 ? 1 : 0;
  if (truncated > 0) spdlog::warn("{}: {} of {} texts were longer than the encoder's limit and truncated", source, truncated, texts.size());
  return matrix_of(outputs.values);
}

ordered_json read_record(const fs::path& index_folder) {
  const auto file = index_folder / kEncoderRecordFile;
  try {
    return ordered_json::parse(io::read_json_text(file, io::kModelInput));
  } catch (const nlohmann::json::exception& error) {
    throw DataError(file.string(), std::string("not an encoder record: ") + error.what());
  }
}

std::string recorded_text(const ordered_json& record, const char* key, const fs::path& file) {
  if (!record.contains(key) || !record[key].is_string()) throw DataError(file.string(), std::string("no \"") + key + "\" text");
  return record[key].get<std::string>();
}

// Queries embedded at another precision than the documents would be compared with vectors of a
// slightly different model: refused, naming the flag that matches. Indexes written before
// --precision existed were computed in f32.
void require_same_precision(const ordered_json& record, const fs::path& record_file) {
  const std::string recorded = record.contains("precision") ? recorded_text(record, "precision", record_file) : "f32";
  const std::string asked = pretrained::precision_name(pretrained::default_checkpoint_precision());
  if (recorded != asked) {
    throw UsageError(record_file.string() + ": the index was encoded with --precision " + recorded + ", the queries would be " +
                     asked + ": give --precision " + recorded);
  }
}

}  // namespace

bool is_encoder_index(const fs::path& index_folder) { return fs::exists(index_folder / kEncoderRecordFile); }

bool is_served_encoder_index(const fs::path& index_folder) {
  return is_encoder_index(index_folder) && read_record(index_folder).contains("served");
}

void index_with_encoder(const fs::path& beir_folder, const fs::path& out_folder, const EncoderSettings& settings,
                        const ExperimentConfig& config) {
  const auto corpus = dataset::load_corpus(beir_folder / "corpus.jsonl");
  const std::string& url = settings.served.endpoint.url;
  std::optional<pretrained::TextModel> model;
  if (url.empty()) require_embeddings(model.emplace(settings.encoder));
  const std::string passage_prefix = settings.passage_prefix.value_or("");
  std::vector<std::string> texts;
  texts.reserve(corpus.documents.size());
  for (const auto& document : corpus.documents) texts.push_back(passage_prefix + document.full_text());
  const std::string encoder = url.empty() ? settings.encoder.string() : "tei:" + url;
  spdlog::info("encoding {} documents with {} ({})", texts.size(), encoder,
               model ? model->model().description() : std::string("Text Embeddings Inference's /embed"));
  const auto matrix = model ? encode(*model, texts, settings, (beir_folder / "corpus.jsonl").string()) : embed_served(texts, settings);

  ordered_json record;
  if (model) {
    record = model->record();
  } else {
    record["served"] = encoder;
    record["dimension"] = matrix.cols();
    record["batch_size"] = settings.batch_size;
  }
  record["query_prefix"] = settings.query_prefix.value_or("");
  record["passage_prefix"] = passage_prefix;
  if (model) record["max_length"] = settings.max_length;
  const std::pair<std::string, std::string> identity =
      model ? std::pair<std::string, std::string>{"encoder_weights", record["weights_xxh64"].dump()}
            : std::pair<std::string, std::string>{"encoder_served", encoder};
  io::AtomicFileSet files;  // the vectors and what made them are replaced together
  nn::write_safetensors(files.stage(out_folder / kEncoderDocumentsFile),
                        {{kDocumentsTensor, matrix.data(), matrix.rows(), matrix.cols()}},
                        {{"corpus_checksum", corpus.checksum}, identity, {"passage_prefix", passage_prefix}});
  io::write_file_atomically(files.stage(out_folder / kEncoderRecordFile),
                            io::json_text(record, (out_folder / kEncoderRecordFile).string(), 2) + "\n");
  files.commit();
  write_meta(out_folder, config,
             {{"stage", "index"},
              {"method", "dense"},
              {"corpus", {{"file", (beir_folder / "corpus.jsonl").string()}, {"checksum", corpus.checksum}}},
              {"encoder", nlohmann::json::parse(record.dump())}});
  spdlog::info("encoder index: {} documents × {} dimensions -> {}", matrix.rows(), matrix.cols(), out_folder.string());
}

run::Run retrieve_with_encoder(const fs::path& beir_folder, const fs::path& index_folder, const std::vector<dataset::Query>& queries,
                               const EncoderSettings& settings, std::size_t k) {
  const auto corpus = dataset::load_corpus(beir_folder / "corpus.jsonl");
  const auto record_file = index_folder / kEncoderRecordFile;
  const ordered_json record = read_record(index_folder);
  const bool served = record.contains("served");
  const std::string& url = settings.served.endpoint.url;
  if (served && !settings.encoder.empty()) {
    throw UsageError(record_file.string() + ": the index was embedded by a served model (" + recorded_text(record, "served", record_file) +
                     "): give --encoder tei:URL, or nothing to use the recorded URL, not the folder " + settings.encoder.string());
  }
  if (!served && !url.empty()) {
    throw UsageError(record_file.string() + ": the index was encoded by a folder, not a served model: give that folder, not tei:" + url);
  }
  EncoderSettings used = settings;
  if (served && url.empty()) used.served.endpoint.url = served::tei_url_of(recorded_text(record, "served", record_file));
  const fs::path folder = served ? fs::path() : settings.encoder.empty() ? fs::path(recorded_text(record, "folder", record_file)) : settings.encoder;
  const std::string encoder = served ? "tei:" + used.served.endpoint.url : folder.string();
  const auto documents_file = index_folder / kEncoderDocumentsFile;
  auto content = nn::read_safetensors(documents_file);
  const auto& metadata = content.metadata;
  if (metadata.count("corpus_checksum") == 0 || metadata.at("corpus_checksum") != corpus.checksum) {
    throw DataError(documents_file.string(), "was encoded from another corpus than " + (beir_folder / "corpus.jsonl").string() +
                                                 ": run claimrag index --method dense --encoder DIR again");
  }
  if (!served && (metadata.count("encoder_weights") == 0 || metadata.at("encoder_weights") != weights_identity(folder))) {
    throw DataError(documents_file.string(), "was encoded by other weights than those in " + folder.string() +
                                                 " (the weight files' checksums differ): give the encoder the index was built with");
  }
  if (content.tensors.size() != 1 || content.tensors.front().name != kDocumentsTensor ||
      content.tensors.front().value.rows() != static_cast<Eigen::Index>(corpus.documents.size())) {
    throw DataError(documents_file.string(), "does not hold one \"documents\" row per document of the corpus");
  }
  if (!served) require_same_precision(record, record_file);
  std::optional<pretrained::TextModel> model;
  if (!served) require_embeddings(model.emplace(folder));
  const std::string query_prefix = settings.query_prefix.value_or(recorded_text(record, "query_prefix", record_file));
  std::vector<std::string> texts;
  texts.reserve(queries.size());
  for (const auto& query : queries) texts.push_back(query_prefix + query.text);
  const auto encoded = model ? encode(*model, texts, settings, "queries") : embed_served(texts, used);
  if (encoded.rows() > 0 && encoded.cols() != content.tensors.front().value.cols()) {
    throw DataError(documents_file.string(), "holds vectors of " + std::to_string(content.tensors.front().value.cols()) +
                                                 " dimensions, and " + encoder + " gives " + std::to_string(encoded.cols()));
  }
  return run_from_hits(corpus, queries, dense::search_top_k(encoded, content.tensors.front().value, k), "encoder");
}

}  // namespace claimrag::experiment
