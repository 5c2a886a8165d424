#include "folder_settings.hpp"

#include "claimrag/error.hpp"
#include "json_fields.hpp"

namespace claimrag::tokenizer {
namespace {

const char* const kSpecialTokenNames[] = {"cls_token", "sep_token", "pad_token", "unk_token",
                                          "mask_token", "bos_token", "eos_token"};

SpecialTokenSetting read_special(const nlohmann::json& value, const std::string& key, const std::string& source) {
  SpecialTokenSetting setting;
  if (value.is_string()) {
    setting.content = value.get<std::string>();
    return setting;
  }
  if (!value.is_object()) throw DataError(source, "\"" + key + "\" should be a token (a string or an object)");
  setting.content = required_string(value, "content", source);
  setting.lstrip = optional_bool(value, "lstrip", source).value_or(false);
  setting.rstrip = optional_bool(value, "rstrip", source).value_or(false);
  setting.single_word = optional_bool(value, "single_word", source).value_or(false);
  setting.normalized = optional_bool(value, "normalized", source);
  return setting;
}

void read_special_tokens(const nlohmann::json& object, const std::string& source, FolderSettings& settings) {
  for (const char* name : kSpecialTokenNames) {
    const auto found = object.find(name);
    if (found == object.end() || found->is_null()) continue;
    settings.special_tokens[name] = read_special(*found, name, source);
  }
}

// model_max_length: a positive integer; values past any sequence a model can hold (the reference
// writes int(1e30), which JSON readers may see as a float) mean no limit.
std::optional<std::size_t> read_model_max_length(const nlohmann::json& config, const std::string& source) {
  const auto found = config.find("model_max_length");
  if (found == config.end() || found->is_null()) return std::nullopt;
  constexpr double kNoLimit = 1e15;
  if (found->is_number_float()) {
    const double value = found->get<double>();
    if (value >= kNoLimit) return std::nullopt;
  } else if (found->is_number_unsigned() || found->is_number_integer()) {
    if (found->is_number_unsigned() && found->get<std::uint64_t>() >= static_cast<std::uint64_t>(kNoLimit)) return std::nullopt;
    if (found->get<std::int64_t>() > 0) return static_cast<std::size_t>(found->get<std::int64_t>());
  }
  throw DataError(source, "\"model_max_length\" should be a positive whole number of tokens, not " + abbreviated(found->dump(), 40));
}

}  // namespace

std::string FolderSettings::token(const std::string& name, const std::string& fallback) const {
  const auto found = special_tokens.find(name);
  return found == special_tokens.end() ? fallback : found->second.content;
}

FolderSettings read_folder_settings(const std::filesystem::path& folder) {
  FolderSettings settings;
  const std::filesystem::path config_path = folder / "tokenizer_config.json";
  if (std::filesystem::exists(config_path)) {
    const std::string source = config_path.string();
    const nlohmann::json config = read_json_object(config_path);
    read_special_tokens(config, source, settings);
    settings.do_lower_case = optional_bool(config, "do_lower_case", source);
    settings.strip_accents = optional_bool(config, "strip_accents", source);
    settings.tokenize_chinese_chars = optional_bool(config, "tokenize_chinese_chars", source);
    settings.add_prefix_space = optional_bool(config, "add_prefix_space", source);
    settings.split_by_punct = optional_bool(config, "split_by_punct", source);
    settings.truncation_side = optional_string(config, "truncation_side", source);
    settings.extra_ids = optional_integer(config, "extra_ids", source);
    settings.legacy = optional_bool(config, "legacy", source);
    settings.tokenizer_class = optional_string(config, "tokenizer_class", source);
    settings.model_max_length = read_model_max_length(config, source);
    if (settings.truncation_side && *settings.truncation_side != "right" && *settings.truncation_side != "left")
      throw DataError(source, "\"truncation_side\" should be \"right\" or \"left\", not \"" + *settings.truncation_side + "\"");
    const auto decoder = config.find("added_tokens_decoder");
    if (decoder != config.end() && !decoder->is_null()) {
      if (!decoder->is_object()) throw DataError(source, "\"added_tokens_decoder\" should be an object of id → token");
      for (const auto& [id_text, value] : decoder->items()) {
        const std::string key = "added_tokens_decoder." + id_text;
        std::size_t used = 0;
        long long id = -1;
        try {
          id = std::stoll(id_text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != id_text.size() || id < 0 || id > 0x7FFFFFFF) throw DataError(source, "\"" + key + "\": the key should be a token id");
        if (!value.is_object()) throw DataError(source, "\"" + key + "\" should be an object");
        AddedToken token = read_added_token_flags(value, source);
        token.id = static_cast<std::int32_t>(id);
        settings.added_tokens_decoder.push_back(token);
      }
    }
  }
  // special_tokens_map.json overrides tokenizer_config.json, as the reference loads them.
  const std::filesystem::path map_path = folder / "special_tokens_map.json";
  if (std::filesystem::exists(map_path)) read_special_tokens(read_json_object(map_path), map_path.string(), settings);
  return settings;
}

}  // namespace claimrag::tokenizer
