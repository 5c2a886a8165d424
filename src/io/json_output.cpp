#include "claimrag/io/json_output.hpp"

#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::io {
namespace {

template <typename Json>
void check(const Json& json, const std::string& pointer, const std::string& what) {
  if (json.is_number_float() && !std::isfinite(json.template get<double>())) {
    throw InternalError(what + ": " + (pointer.empty() ? std::string("/") : pointer) + " is " +
                        std::to_string(json.template get<double>()) + ": a NaN or infinite number is never written");
  }
  if (json.is_object()) {
    for (const auto& [key, value] : json.items()) check(value, pointer + "/" + key, what);
  } else if (json.is_array()) {
    for (std::size_t i = 0; i < json.size(); ++i) check(json[i], pointer + "/" + std::to_string(i), what);
  }
}

}  // namespace

std::string json_text(const nlohmann::json& json, const std::string& what, int indent) {
  check(json, "", what);
  return json.dump(indent);
}

std::string json_text(const nlohmann::ordered_json& json, const std::string& what, int indent) {
  check(json, "", what);
  return json.dump(indent);
}

}  // namespace claimrag::io
