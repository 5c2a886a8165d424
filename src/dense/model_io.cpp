#include "claimrag/dense/model_io.hpp"

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/checksum.hpp"

namespace claimrag::dense {
namespace {

void add_metadata(nn::SafetensorsMetadata& metadata, const nn::SafetensorsMetadata& extra) {
  for (const auto& [key, value] : extra) {
    if (!metadata.emplace(key, value).second) throw InternalError("metadata key '" + key + "' is reserved");
  }
}

const std::string& required(const nn::SafetensorsMetadata& metadata, const std::string& file, const std::string& key) {
  const auto found = metadata.find(key);
  if (found == metadata.end()) throw DataError(file, "metadata has no '" + key + "'");
  return found->second;
}

void expect_equal(const nn::SafetensorsMetadata& metadata, const std::string& file, const std::string& key,
                  const std::string& expected, const std::string& what) {
  const std::string& found = required(metadata, file, key);
  if (found != expected) {
    throw DataError(file, key + " is '" + found + "' but " + what + " expects '" + expected + "'");
  }
}

}  // namespace

void save_model(const std::filesystem::path& path, const DualEncoder<float>& model, const Vocabulary& vocabulary,
                const nn::SafetensorsMetadata& extra) {
  if (vocabulary.size() != static_cast<std::size_t>(model.vocabulary_size())) {
    throw InternalError("save_model: the vocabulary does not match the model's tables");
  }
  const DenseOptions& options = model.options();
  nn::SafetensorsMetadata metadata{{"format", kModelFormat},
                                   {"format_version", std::to_string(kDenseFormatVersion)},
                                   {"options", options_text(options)},
                                   {"config_hash", options_fingerprint(options)},
                                   {"dimension", std::to_string(options.dimension)},
                                   {"seed", std::to_string(options.seed)},
                                   {"shared_towers", options.shared_towers ? "true" : "false"},
                                   {"vocabulary_size", std::to_string(vocabulary.size())},
                                   {"vocabulary_checksum", vocabulary.checksum()},
                                   {"vocabulary", nlohmann::json(vocabulary.tokens()).dump()}};
  add_metadata(metadata, extra);
  nn::save_registry(path, model.parameters(), metadata);
}

LoadedModel load_model(const std::filesystem::path& path, const DenseOptions& expected) {
  const std::string file = path.string();
  // Read once to check the metadata before building tables of the stored size.
  nn::SafetensorsContent content = nn::read_safetensors(path);
  const nn::SafetensorsMetadata metadata = content.metadata;
  expect_equal(metadata, file, "format", kModelFormat, "a dense model");
  expect_equal(metadata, file, "format_version", std::to_string(kDenseFormatVersion), "this program");
  expect_equal(metadata, file, "dimension", std::to_string(expected.dimension), "the configuration");
  expect_equal(metadata, file, "seed", std::to_string(expected.seed), "the configuration");
  expect_equal(metadata, file, "config_hash", options_fingerprint(expected),
               "the configuration (" + options_text(expected) + ")");
  std::vector<std::string> tokens;
  try {
    tokens = nlohmann::json::parse(io::depth_checked(required(metadata, file, "vocabulary"), file)).get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception& error) {
    throw DataError(file, std::string("metadata 'vocabulary' is not a JSON array of strings: ") + error.what());
  }
  Vocabulary vocabulary;
  try {
    vocabulary = Vocabulary::from_tokens(std::move(tokens));
  } catch (const InternalError& error) {
    throw DataError(file, std::string("metadata 'vocabulary' is invalid: ") + error.what());
  }
  expect_equal(metadata, file, "vocabulary_checksum", vocabulary.checksum(), "the stored vocabulary");
  expect_equal(metadata, file, "vocabulary_size", std::to_string(vocabulary.size()), "the stored vocabulary");
  if (vocabulary.size() == 0) throw DataError(file, "the stored vocabulary is empty");

  DualEncoder<float> model(static_cast<std::int32_t>(vocabulary.size()), expected);
  nn::load_registry(std::move(content), file, model.parameters());
  return LoadedModel{std::move(vocabulary), std::move(model), metadata};
}

std::string model_fingerprint(const DualEncoder<float>& model, const Vocabulary& vocabulary) {
  std::string bytes = options_fingerprint(model.options()) + vocabulary.checksum();
  const auto& registry = model.parameters();
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const auto& value = registry[i].value;
    bytes.append(reinterpret_cast<const char*>(value.data()), static_cast<std::size_t>(value.size()) * sizeof(float));
  }
  return io::checksum_hex(bytes);
}

void save_document_matrix(const std::filesystem::path& path, const nn::Matrix<float>& documents,
                          const std::string& model_fingerprint, const nn::SafetensorsMetadata& extra) {
  nn::SafetensorsMetadata metadata{{"format", kDocumentMatrixFormat},
                                   {"format_version", std::to_string(kDenseFormatVersion)},
                                   {"model_fingerprint", model_fingerprint}};
  add_metadata(metadata, extra);
  nn::write_safetensors(path, {{"documents", documents.data(), documents.rows(), documents.cols()}}, metadata);
}

nn::Matrix<float> load_document_matrix(const std::filesystem::path& path, const std::string& expected_fingerprint,
                                       Eigen::Index expected_rows) {
  const std::string file = path.string();
  nn::SafetensorsContent content = nn::read_safetensors(path);
  expect_equal(content.metadata, file, "format", kDocumentMatrixFormat, "a document matrix");
  expect_equal(content.metadata, file, "format_version", std::to_string(kDenseFormatVersion), "this program");
  // Both files passed their checksums, so a mismatch means they come from different runs.
  if (required(content.metadata, file, "model_fingerprint") != expected_fingerprint) {
    throw DataError(file, "was encoded by another model (model_fingerprint " + content.metadata.at("model_fingerprint") +
                              ", the loaded model's is " + expected_fingerprint +
                              "): model and document matrix do not belong together; run claimrag index --method dense again");
  }
  if (content.tensors.size() != 1 || content.tensors[0].name != "documents") {
    throw DataError(file, "expected exactly one tensor named 'documents'");
  }
  nn::Matrix<float>& documents = content.tensors[0].value;
  if (documents.rows() != expected_rows) {
    throw DataError(file, "holds " + std::to_string(documents.rows()) + " documents, the corpus has " +
                              std::to_string(expected_rows));
  }
  return std::move(documents);
}

}  // namespace claimrag::dense
