#include "json_fields.hpp"

#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"

namespace claimrag::tokenizer {
namespace {

[[noreturn]] void wrong(const std::string& source, const std::string& key, const std::string& expected,
                        const nlohmann::json& value) {
  throw DataError(source, "\"" + key + "\" should be " + expected + ", not " + abbreviated(value.dump(), 80));
}

}  // namespace

nlohmann::json read_json_object(const std::filesystem::path& path) {
  const std::string text = io::read_file(path, io::kVocabularyInput);
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(io::depth_checked(text, path.string()));
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(path.string(), std::string("not valid JSON (") + error.what() + ")");
  }
  if (!parsed.is_object()) throw DataError(path.string(), "should hold a JSON object");
  return parsed;
}

std::optional<bool> optional_bool(const nlohmann::json& object, const std::string& key, const std::string& source) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  if (!found->is_boolean()) wrong(source, key, "true or false", *found);
  return found->get<bool>();
}

std::optional<std::string> optional_string(const nlohmann::json& object, const std::string& key,
                                           const std::string& source) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  if (!found->is_string()) wrong(source, key, "a string", *found);
  return found->get<std::string>();
}

std::optional<std::int64_t> optional_integer(const nlohmann::json& object, const std::string& key,
                                             const std::string& source) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  if (!found->is_number_integer()) wrong(source, key, "an integer", *found);
  return found->get<std::int64_t>();
}

const nlohmann::json& required(const nlohmann::json& object, const std::string& key, const std::string& source) {
  const auto found = object.find(key);
  if (found == object.end()) throw DataError(source, "\"" + key + "\" is missing");
  return *found;
}

std::string required_string(const nlohmann::json& object, const std::string& key, const std::string& source) {
  const nlohmann::json& value = required(object, key, source);
  if (!value.is_string()) wrong(source, key, "a string", value);
  return value.get<std::string>();
}

std::int32_t required_id(const nlohmann::json& object, const std::string& key, const std::string& source) {
  const nlohmann::json& value = required(object, key, source);
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0 ||
      value.get<std::int64_t>() > std::numeric_limits<std::int32_t>::max())
    wrong(source, key, "a token id (a non-negative integer)", value);
  return static_cast<std::int32_t>(value.get<std::int64_t>());
}

AddedToken read_added_token_flags(const nlohmann::json& object, const std::string& source) {
  AddedToken token;
  token.content = required_string(object, "content", source);
  token.single_word = optional_bool(object, "single_word", source).value_or(false);
  token.lstrip = optional_bool(object, "lstrip", source).value_or(false);
  token.rstrip = optional_bool(object, "rstrip", source).value_or(false);
  token.special = optional_bool(object, "special", source).value_or(false);
  token.normalized = optional_bool(object, "normalized", source).value_or(!token.special);
  return token;
}

}  // namespace claimrag::tokenizer
