#include "claimrag/verifier/model_io.hpp"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"

namespace claimrag::verifier {
namespace {

nlohmann::json options_json(const VerifierOptions& options) {
  return {{"num_classes", options.num_classes}, {"d_model", options.d_model},       {"heads", options.heads},
          {"d_ff", options.d_ff},               {"max_length", options.max_length}, {"embedding_stddev", options.embedding_stddev}};
}

const std::string& required(const nn::SafetensorsMetadata& metadata, const std::string& file, const std::string& key) {
  const auto found = metadata.find(key);
  if (found == metadata.end()) throw DataError(file, "metadata has no '" + key + "'");
  return found->second;
}

}  // namespace

void save_verifier(const std::filesystem::path& path, const VerifierModel<float>& model, const Vocabulary& vocabulary,
                   const nn::SafetensorsMetadata& extra) {
  if (vocabulary.size() != model.vocabulary_size()) throw InternalError("save_verifier: the vocabulary does not match the model");
  std::vector<std::string> words;
  for (auto id = static_cast<std::size_t>(Vocabulary::reserved_count); id < vocabulary.size(); ++id) {
    words.push_back(vocabulary.token(static_cast<std::int32_t>(id)));
  }
  nn::SafetensorsMetadata metadata{{"format", kVerifierFormat},
                                   {"format_version", std::to_string(kVerifierFormatVersion)},
                                   {"options", options_json(model.options()).dump()},
                                   {"vocabulary", nlohmann::json(words).dump()}};
  for (const auto& [key, value] : extra) {
    if (!metadata.emplace(key, value).second) throw InternalError("verifier metadata key '" + key + "' is reserved");
  }
  nn::save_registry(path, model.parameters(), metadata);
}

LoadedVerifier load_verifier(const std::filesystem::path& path) {
  const std::string file = path.string();
  nn::SafetensorsContent content = nn::read_safetensors(path);
  LoadedVerifier loaded{Vocabulary(), nullptr, content.metadata};
  if (required(loaded.metadata, file, "format") != kVerifierFormat) throw DataError(file, "is not a claimrag verifier");
  if (required(loaded.metadata, file, "format_version") != std::to_string(kVerifierFormatVersion)) {
    throw DataError(file, "has verifier format version " + loaded.metadata.at("format_version") + ", this program reads " +
                              std::to_string(kVerifierFormatVersion));
  }
  VerifierOptions options;
  try {
    const auto json = nlohmann::json::parse(io::depth_checked(required(loaded.metadata, file, "options"), file));
    options.num_classes = json.at("num_classes").get<int>();
    options.d_model = json.at("d_model").get<Eigen::Index>();
    options.heads = json.at("heads").get<Eigen::Index>();
    options.d_ff = json.at("d_ff").get<Eigen::Index>();
    options.max_length = json.at("max_length").get<std::size_t>();
    options.embedding_stddev = json.at("embedding_stddev").get<double>();
    loaded.vocabulary = Vocabulary(nlohmann::json::parse(io::depth_checked(required(loaded.metadata, file, "vocabulary"), file)).get<std::vector<std::string>>());
  } catch (const nlohmann::json::exception& error) {
    throw DataError(file, std::string("malformed verifier metadata: ") + error.what());
  } catch (const InternalError& error) {
    throw DataError(file, std::string("invalid stored vocabulary: ") + error.what());
  }
  // Options are checked against the tensors before a model of their size is allocated: a forged
  // d_model must be a DataError, not an allocation of terabytes.
  std::uint64_t floats = 0;
  for (const auto& tensor : content.tensors) floats += static_cast<std::uint64_t>(tensor.value.size());
  const auto fits = [&](std::int64_t a, std::int64_t b) {
    return a > 0 && b > 0 && static_cast<std::uint64_t>(a) <= floats && static_cast<std::uint64_t>(b) <= floats / static_cast<std::uint64_t>(a);
  };
  const auto words = static_cast<std::int64_t>(loaded.vocabulary.size());
  const auto length = static_cast<std::int64_t>(std::min<std::size_t>(options.max_length, INT64_MAX));
  if (!fits(words, options.d_model) || !fits(options.d_ff, options.d_model) || !fits(options.num_classes, options.d_model) ||
      !fits(length, options.d_model) || !fits(options.heads, 1)) {
    throw DataError(file, "stored verifier options do not fit the stored tensors");
  }
  try {
    std::mt19937_64 overwritten(0);  // the stored values replace the initial ones
    loaded.model = std::make_unique<VerifierModel<float>>(loaded.vocabulary.size(), options, overwritten);
  } catch (const UsageError& error) {
    throw DataError(file, std::string("stored verifier options are invalid: ") + error.what());
  }
  nn::load_registry(std::move(content), file, loaded.model->parameters());
  return loaded;
}

}  // namespace claimrag::verifier
