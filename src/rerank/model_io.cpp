#include "claimrag/rerank/model_io.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/io/safetensors_checksum.hpp"

namespace claimrag::rerank {
namespace {

static_assert(std::endian::native == std::endian::little, "safetensors stores little-endian tensors");

std::string number_text(double value) {
  char buffer[64];
  const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, written.ptr);
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

const char* class_weight_name(ClassWeight weight) { return weight == ClassWeight::balanced ? "balanced" : "none"; }

// Typed access to the string-only __metadata__ map; every failure names the file and the key.
class Metadata {
 public:
  Metadata(const nlohmann::json& object, std::string source) : object_(object), source_(std::move(source)) {}

  [[nodiscard]] std::string text(const std::string& key) const {
    const auto found = object_.find(key);
    if (found == object_.end()) fail(key, "is missing");
    if (!found->is_string()) fail(key, "is not a string");
    return found->get<std::string>();
  }
  template <typename Number>
  [[nodiscard]] Number number(const std::string& key) const {
    const std::string value = text(key);
    Number parsed{};
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (error != std::errc() || end != value.data() + value.size()) fail(key, "\"" + value + "\" is not a number");
    if constexpr (std::is_floating_point_v<Number>) {
      if (!std::isfinite(parsed)) fail(key, "\"" + value + "\" is not a finite number");
    }
    return parsed;
  }
  [[nodiscard]] bool flag(const std::string& key) const {
    const std::string value = text(key);
    if (value != "true" && value != "false") fail(key, "\"" + value + "\" is not true or false");
    return value == "true";
  }
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
    throw DataError(source_, "metadata field \"" + key + "\" " + reason);
  }

 private:
  const nlohmann::json& object_;
  std::string source_;
};

std::vector<double> read_tensor(const nlohmann::json& header, const std::string& name, std::size_t expected_size,
                                std::string_view buffer, const std::string& source) {
  const auto found = header.find(name);
  if (found == header.end() || !found->is_object()) throw DataError(source, "tensor \"" + name + "\" is missing");
  const auto& info = *found;
  if (info.value("dtype", nlohmann::json()) != "F64") throw DataError(source, "tensor \"" + name + "\" is not F64");
  const auto shape = info.find("shape");
  const auto offsets = info.find("data_offsets");
  const bool well_formed = shape != info.end() && shape->is_array() && shape->size() == 1 &&
                           (*shape)[0].is_number_unsigned() && offsets != info.end() && offsets->is_array() &&
                           offsets->size() == 2 && (*offsets)[0].is_number_unsigned() &&
                           (*offsets)[1].is_number_unsigned();
  if (!well_formed) throw DataError(source, "tensor \"" + name + "\" has a malformed shape or data_offsets");
  const auto size = (*shape)[0].get<std::uint64_t>();
  const auto begin = (*offsets)[0].get<std::uint64_t>();
  const auto end = (*offsets)[1].get<std::uint64_t>();
  if (size != expected_size) {
    throw DataError(source, "tensor \"" + name + "\" has " + std::to_string(size) + " entries, expected " +
                                std::to_string(expected_size));
  }
  if (begin > end || end > buffer.size() || end - begin != size * sizeof(double)) {
    throw DataError(source, "tensor \"" + name + "\" lies outside the file's data");
  }
  std::vector<double> values(size);
  std::memcpy(values.data(), buffer.data() + begin, end - begin);
  io::require_finite_weights(values.data(), values.size(), source, name);
  return values;
}

}  // namespace

void save_model(const RerankerModel& model, const std::filesystem::path& path) {
  const auto& features = model.features;
  const auto& classifier = model.classifier;
  const std::size_t count = static_cast<std::size_t>(classifier.weights.size());
  if (count != features.names.size()) throw InternalError("reranker model: weights and feature names disagree");
  const nlohmann::json metadata = {
      {"format", kModelFormat},
      {"format_version", std::to_string(kModelFormatVersion)},
      {"feature_names", joined(features.names)},
      {"corpus_checksum", features.corpus_checksum},
      {"tfidf_fingerprint", features.tfidf_fingerprint},
      {"tfidf_max_features", std::to_string(features.tfidf_max_features)},
      {"bm25_k1", number_text(features.bm25.k1)},
      {"bm25_b", number_text(features.bm25.b)},
      {"C", number_text(model.training.C)},
      {"class_weight", class_weight_name(model.training.class_weight)},
      {"train_split", model.training.train_split},
      {"train_depth", std::to_string(model.training.train_depth)},
      {"training_queries", std::to_string(model.training_queries)},
      {"training_rows", std::to_string(model.training_rows)},
      {"training_positives", std::to_string(model.training_positives)},
      {"fit_intercept", classifier.fit_intercept ? "true" : "false"},
      {"intercept_scaling", number_text(classifier.intercept_scaling)},
      {"newton_iterations", std::to_string(classifier.iterations)},
      {"converged", classifier.converged ? "true" : "false"},
      {"objective", number_text(classifier.objective)},
  };
  const std::size_t weight_bytes = count * sizeof(double);
  nlohmann::json header = {
      {"__metadata__", metadata},
      {"weights", {{"dtype", "F64"}, {"shape", {count}}, {"data_offsets", {0, weight_bytes}}}},
      {"intercept", {{"dtype", "F64"}, {"shape", {1}}, {"data_offsets", {weight_bytes, weight_bytes + sizeof(double)}}}},
  };
  std::string data(reinterpret_cast<const char*>(classifier.weights.data()), weight_bytes);
  data.append(reinterpret_cast<const char*>(&classifier.intercept), sizeof(double));
  const std::string bytes = io::safetensors_file_bytes(std::move(header), data);
  io::write_file_atomically(path, bytes, true);
}

RerankerModel load_model(const std::filesystem::path& path) {
  const std::string source = path.string();
  const std::string bytes = io::read_file(path, io::kModelInput);
  std::uint64_t header_size = 0;
  if (bytes.size() < sizeof header_size) throw DataError(source, "not a safetensors file (too short)");
  std::memcpy(&header_size, bytes.data(), sizeof header_size);
  if (header_size > bytes.size() - sizeof header_size) throw DataError(source, "not a safetensors file (bad header length)");
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(io::depth_checked(std::string_view(bytes).substr(sizeof header_size, header_size), source));
  } catch (const nlohmann::json::parse_error&) {
    throw DataError(source, "not a safetensors file (the header is not JSON)");
  }
  io::verify_safetensors_checksum(bytes, source);
  if (!header.is_object() || !header.contains("__metadata__") || !header["__metadata__"].is_object()) {
    throw DataError(source, "not a claimrag reranker model (no __metadata__)");
  }
  const Metadata metadata(header["__metadata__"], source);
  if (metadata.text("format") != kModelFormat) {
    throw DataError(source, "is a \"" + metadata.text("format") + "\" file, not a " + kModelFormat);
  }
  if (metadata.number<int>("format_version") != kModelFormatVersion) {
    throw DataError(source, "has format version " + metadata.text("format_version") + "; this build reads version " +
                                std::to_string(kModelFormatVersion));
  }
  RerankerModel model;
  auto& features = model.features;
  features.names = split_commas(metadata.text("feature_names"));
  features.corpus_checksum = metadata.text("corpus_checksum");
  features.tfidf_fingerprint = metadata.text("tfidf_fingerprint");
  features.tfidf_max_features = metadata.number<std::size_t>("tfidf_max_features");
  features.bm25.k1 = metadata.number<double>("bm25_k1");
  features.bm25.b = metadata.number<double>("bm25_b");
  model.training.C = metadata.number<double>("C");
  const std::string class_weight = metadata.text("class_weight");
  if (class_weight != "balanced" && class_weight != "none") metadata.fail("class_weight", "is \"" + class_weight + "\"");
  model.training.class_weight = class_weight == "balanced" ? ClassWeight::balanced : ClassWeight::none;
  model.training.train_split = metadata.text("train_split");
  model.training.train_depth = metadata.number<std::size_t>("train_depth");
  model.training_queries = metadata.number<std::size_t>("training_queries");
  model.training_rows = metadata.number<std::size_t>("training_rows");
  model.training_positives = metadata.number<std::size_t>("training_positives");
  auto& classifier = model.classifier;
  classifier.fit_intercept = metadata.flag("fit_intercept");
  classifier.intercept_scaling = metadata.number<double>("intercept_scaling");
  classifier.iterations = metadata.number<int>("newton_iterations");
  classifier.converged = metadata.flag("converged");
  classifier.objective = metadata.number<double>("objective");

  const std::string_view buffer = std::string_view(bytes).substr(sizeof header_size + header_size);
  const auto weights = read_tensor(header, "weights", features.names.size(), buffer, source);
  classifier.weights = Eigen::Map<const Eigen::VectorXd>(weights.data(), static_cast<Eigen::Index>(weights.size()));
  classifier.intercept = read_tensor(header, "intercept", 1, buffer, source)[0];
  return model;
}

}  // namespace claimrag::rerank
