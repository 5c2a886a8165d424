#include "claimrag/pretrained/sentence_pooling.hpp"

#include <cmath>
#include <system_error>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::pretrained {
namespace {

using nlohmann::json;

// `named_by` is the file that led to `path` (modules.json names the Pooling folder), so a path
// that cannot even be examined (too long, unreadable parent) is reported against the file at fault.
json read_json(const std::filesystem::path& path, const std::string& named_by) {
  std::error_code error_code;
  const bool exists = std::filesystem::exists(path, error_code);
  if (error_code) throw DataError(named_by, "cannot examine " + path.string() + ": " + error_code.message());
  if (!exists) throw DataError(path.string(), "missing");
  try {
    return json::parse(io::read_json_text(path));
  } catch (const json::parse_error& error) {
    throw DataError(path.string(), std::string("malformed JSON: ") + error.what());
  }
}

bool read_mode(const json& config, const std::string& file, const char* key) {
  const auto found = config.find(key);
  if (found == config.end() || found->is_null()) return false;
  if (!found->is_boolean()) throw DataError(file, std::string("\"") + key + "\" is not true or false");
  return found->get<bool>();
}

}  // namespace

bool has_sentence_modules(const std::filesystem::path& folder) {
  std::error_code error_code;  // an unexaminable folder is reported by the reader that opens it
  return std::filesystem::exists(folder / "modules.json", error_code);
}

SentencePooling read_sentence_pooling(const std::filesystem::path& folder) {
  const auto modules_path = folder / "modules.json";
  const std::string modules_file = modules_path.string();
  const json modules = read_json(modules_path, modules_file);
  if (!modules.is_array()) throw DataError(modules_file, "not a list of modules");
  SentencePooling pooling;
  std::string pooling_folder;
  bool has_pooling = false;
  for (const auto& module : modules) {
    if (!module.is_object() || !module.contains("type") || !module["type"].is_string()) {
      throw DataError(modules_file, "a module without a \"type\": " + module.dump());
    }
    const auto type = module["type"].get<std::string>();
    if (type == "sentence_transformers.models.Transformer") continue;
    if (type == "sentence_transformers.models.Normalize") {
      pooling.normalize = true;
    } else if (type == "sentence_transformers.models.Pooling") {
      has_pooling = true;
      const auto path = module.value("path", nlohmann::json("1_Pooling"));
      if (!path.is_string()) throw DataError(modules_file, "the Pooling module's \"path\" is not a string: " + path.dump());
      pooling_folder = path.get<std::string>();
    } else {
      throw DataError(modules_file, "module type '" + type +
                                        "' is not supported (supported: sentence_transformers.models.Transformer, "
                                        "Pooling, Normalize)");
    }
  }
  if (!has_pooling) throw DataError(modules_file, "no sentence_transformers.models.Pooling module");
  if (pooling_folder.find("..") != std::string::npos) throw DataError(modules_file, "Pooling path leaves the folder");
  const auto config_path = folder / pooling_folder / "config.json";
  const std::string config_file = config_path.string();
  const json config = read_json(config_path, modules_file);
  if (!config.is_object()) throw DataError(config_file, "not a JSON object");
  pooling.cls_token = read_mode(config, config_file, "pooling_mode_cls_token");
  pooling.max_tokens = read_mode(config, config_file, "pooling_mode_max_tokens");
  pooling.mean_tokens = read_mode(config, config_file, "pooling_mode_mean_tokens");
  pooling.mean_sqrt_len_tokens = read_mode(config, config_file, "pooling_mode_mean_sqrt_len_tokens");
  for (const char* unsupported : {"pooling_mode_weightedmean_tokens", "pooling_mode_lasttoken"}) {
    if (read_mode(config, config_file, unsupported)) {
      throw DataError(config_file, std::string(unsupported) + " is not supported (supported: cls_token, max_tokens, "
                                                             "mean_tokens, mean_sqrt_len_tokens)");
    }
  }
  if (!pooling.cls_token && !pooling.max_tokens && !pooling.mean_tokens && !pooling.mean_sqrt_len_tokens) {
    throw DataError(config_file, "no pooling mode is set");
  }
  for (const auto& [set, name] : {std::pair{pooling.cls_token, "cls"}, std::pair{pooling.max_tokens, "max"},
                                  std::pair{pooling.mean_tokens, "mean"}, std::pair{pooling.mean_sqrt_len_tokens, "mean_sqrt_len"}}) {
    if (set) pooling.description += (pooling.description.empty() ? "" : "+") + std::string(name);
  }
  if (pooling.normalize) pooling.description += ", normalised";
  return pooling;
}

nn::Matrix<float> pool_tokens(const SentencePooling& pooling, const nn::Matrix<float>& states) {
  const Eigen::Index hidden = states.cols();
  const int parts = int{pooling.cls_token} + int{pooling.max_tokens} + int{pooling.mean_tokens} + int{pooling.mean_sqrt_len_tokens};
  nn::Matrix<float> vector(1, hidden * parts);
  Eigen::Index at = 0;
  const auto put = [&](const nn::Matrix<float>& part) {
    vector.middleCols(at, hidden) = part;
    at += hidden;
  };
  const auto count = static_cast<float>(states.rows());
  const nn::Matrix<float> sum = states.colwise().sum();
  if (pooling.cls_token) put(states.row(0));
  if (pooling.max_tokens) put(states.colwise().maxCoeff());
  if (pooling.mean_tokens) put(sum / count);
  if (pooling.mean_sqrt_len_tokens) put(sum / std::sqrt(count));
  if (pooling.normalize) {
    // As torch.nn.functional.normalize: the norm is kept at least 1e-12.
    const float norm = std::max(vector.norm(), 1e-12F);
    vector /= norm;
  }
  return vector;
}

}  // namespace claimrag::pretrained
