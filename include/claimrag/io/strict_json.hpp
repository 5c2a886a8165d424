#pragma once
// Reading a JSON object field by field so that a misspelt key or a wrong type is an error naming
// the key, never a silent default.

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace claimrag::io {

/// Reads the fields of one JSON object. Absent fields leave their target unchanged (its default);
/// present fields must have the target's type; finish() refuses any field nobody read.
/// Errors are UsageErrors reading `<source>: "<key path>": <reason>`.
class StrictObject {
 public:
  StrictObject(const nlohmann::json& object, std::string source, std::string key_path = "");

  void read(const std::string& key, std::string& target);
  void read(const std::string& key, double& target);
  void read(const std::string& key, bool& target);
  void read(const std::string& key, std::int64_t& target);
  void read(const std::string& key, std::uint64_t& target);
  void read(const std::string& key, int& target);
  void read(const std::string& key, std::vector<double>& target);
  void read(const std::string& key, std::vector<std::uint64_t>& target);
  void read(const std::string& key, std::vector<std::string>& target);
  /// A nested object (an empty one when absent).
  StrictObject object(const std::string& key);
  [[nodiscard]] bool has(const std::string& key) const;
  /// Throws when the object holds a key that no read() or object() asked for.
  void finish() const;

 private:
  const nlohmann::json* find(const std::string& key);
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const;

  nlohmann::json object_;
  std::string source_;
  std::string key_path_;
  std::set<std::string> read_keys_;
};

}  // namespace claimrag::io
