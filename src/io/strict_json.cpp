#include "claimrag/io/strict_json.hpp"

#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::io {

StrictObject::StrictObject(const nlohmann::json& object, std::string source, std::string key_path)
    : object_(object.is_null() ? nlohmann::json::object() : object),
      source_(std::move(source)),
      key_path_(std::move(key_path)) {
  if (!object_.is_object()) {
    throw UsageError(source_ + ": \"" + (key_path_.empty() ? std::string("(top level)") : key_path_) +
                     "\" must be a JSON object");
  }
}

void StrictObject::fail(const std::string& key, const std::string& reason) const {
  const std::string path = key_path_.empty() ? key : key_path_ + "." + key;
  throw UsageError(source_ + ": \"" + path + "\" " + reason);
}

bool StrictObject::has(const std::string& key) const { return object_.contains(key); }

const nlohmann::json* StrictObject::find(const std::string& key) {
  read_keys_.insert(key);
  const auto found = object_.find(key);
  return found == object_.end() ? nullptr : &*found;
}

void StrictObject::read(const std::string& key, std::string& target) {
  if (const auto* value = find(key)) {
    if (!value->is_string()) fail(key, "must be a string");
    target = value->get<std::string>();
  }
}

void StrictObject::read(const std::string& key, double& target) {
  if (const auto* value = find(key)) {
    if (!value->is_number()) fail(key, "must be a number");
    target = value->get<double>();
  }
}

void StrictObject::read(const std::string& key, bool& target) {
  if (const auto* value = find(key)) {
    if (!value->is_boolean()) fail(key, "must be true or false");
    target = value->get<bool>();
  }
}

void StrictObject::read(const std::string& key, std::int64_t& target) {
  if (const auto* value = find(key)) {
    if (!value->is_number_integer()) fail(key, "must be a whole number");
    target = value->get<std::int64_t>();
  }
}

void StrictObject::read(const std::string& key, std::uint64_t& target) {
  if (const auto* value = find(key)) {
    if (!value->is_number_integer() || value->get<std::int64_t>() < 0) fail(key, "must be a whole number >= 0");
    target = value->get<std::uint64_t>();
  }
}

void StrictObject::read(const std::string& key, int& target) {
  std::int64_t wide = target;
  read(key, wide);
  if (wide < INT32_MIN || wide > INT32_MAX) fail(key, "is out of range");
  target = static_cast<int>(wide);
}

void StrictObject::read(const std::string& key, std::vector<double>& target) {
  if (const auto* value = find(key)) {
    if (!value->is_array()) fail(key, "must be an array of numbers");
    target.clear();
    for (const auto& item : *value) {
      if (!item.is_number()) fail(key, "must be an array of numbers");
      target.push_back(item.get<double>());
    }
  }
}

void StrictObject::read(const std::string& key, std::vector<std::uint64_t>& target) {
  if (const auto* value = find(key)) {
    if (!value->is_array()) fail(key, "must be an array of non-negative integers");
    target.clear();
    for (const auto& item : *value) {
      if (!item.is_number_unsigned()) fail(key, "must be an array of non-negative integers");
      target.push_back(item.get<std::uint64_t>());
    }
  }
}

void StrictObject::read(const std::string& key, std::vector<std::string>& target) {
  if (const auto* value = find(key)) {
    if (!value->is_array()) fail(key, "must be an array of strings");
    target.clear();
    for (const auto& item : *value) {
      if (!item.is_string()) fail(key, "must be an array of strings");
      target.push_back(item.get<std::string>());
    }
  }
}

StrictObject StrictObject::object(const std::string& key) {
  const auto* value = find(key);
  const std::string path = key_path_.empty() ? key : key_path_ + "." + key;
  if (value != nullptr && !value->is_object()) fail(key, "must be a JSON object");
  return StrictObject(value != nullptr ? *value : nlohmann::json::object(), source_, path);
}

void StrictObject::finish() const {
  for (const auto& [key, value] : object_.items()) {
    if (!read_keys_.contains(key)) fail(key, "is not a known key");
  }
}

}  // namespace claimrag::io
