#pragma once
// JSON text for files claimrag writes. nlohmann::json writes a NaN or an infinity as `null`
// without a word, which would turn a broken score into a missing one: here it is refused.

#include <nlohmann/json.hpp>
#include <string>

namespace claimrag::io {

/// json.dump(indent), after checking that no number in `json` is NaN or infinite; otherwise
/// InternalError naming the JSON pointer of the first such number and `what` (the file).
std::string json_text(const nlohmann::json& json, const std::string& what, int indent = -1);
/// The same for JSON whose keys keep their insertion order.
std::string json_text(const nlohmann::ordered_json& json, const std::string& what, int indent = -1);

}  // namespace claimrag::io
