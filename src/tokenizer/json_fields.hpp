#pragma once
// Reading the JSON files of a model folder with errors that name the file and the key.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "claimrag/tokenizer/added_tokens.hpp"

namespace claimrag::tokenizer {

/// The parsed JSON object in `path`. DataError naming the file when it is unreadable, not JSON, or
/// not an object.
nlohmann::json read_json_object(const std::filesystem::path& path);

/// Typed access to `object[key]` inside the file `source`; DataError "<source>: \"<key>\": ..." on
/// a wrong type. The optional_ forms treat an absent key and null alike.
std::optional<bool> optional_bool(const nlohmann::json& object, const std::string& key, const std::string& source);
std::optional<std::string> optional_string(const nlohmann::json& object, const std::string& key,
                                           const std::string& source);
std::optional<std::int64_t> optional_integer(const nlohmann::json& object, const std::string& key,
                                             const std::string& source);
const nlohmann::json& required(const nlohmann::json& object, const std::string& key, const std::string& source);
std::string required_string(const nlohmann::json& object, const std::string& key, const std::string& source);
std::int32_t required_id(const nlohmann::json& object, const std::string& key, const std::string& source);
/// An added token's content and flags (not its id) from an object of tokenizer.json's
/// "added_tokens" or tokenizer_config.json's "added_tokens_decoder"; `normalized` defaults to
/// not `special`, as the reference's does.
AddedToken read_added_token_flags(const nlohmann::json& object, const std::string& source);

}  // namespace claimrag::tokenizer
