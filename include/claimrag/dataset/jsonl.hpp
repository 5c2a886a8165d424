#pragma once
// Reading JSON Lines files with simdjson: every non-blank line parsed and fully validated, each
// failure reported as `file:line: reason`.

#include <simdjson.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace claimrag::dataset {

/// Calls `visit(object, line_number)` for every non-blank line of the file, which must be a JSON
/// object. Throws DataError for a missing file or a malformed line. Returns the checksum
/// (io::checksum_hex) of the file's bytes, so callers need not read the file twice.
std::string for_each_json_object(
    const std::filesystem::path& path,
    const std::function<void(simdjson::dom::object object, std::size_t line)>& visit);

/// Field accessors that throw DataError(file, line, reason) naming the field.
class FieldReader {
 public:
  FieldReader(simdjson::dom::object object, const std::filesystem::path& path, std::size_t line)
      : object_(object), path_(path), line_(line) {}
  /// A required string field.
  [[nodiscard]] std::string string(std::string_view key) const;
  /// A string field that may be absent (then `fallback`).
  [[nodiscard]] std::string optional_string(std::string_view key, std::string_view fallback) const;
  /// A required identifier: a JSON string obeying dataset/identifier.hpp's rule, or an integer
  /// written in decimal.
  [[nodiscard]] std::string identifier(std::string_view key) const;
  /// A required field of any type.
  [[nodiscard]] simdjson::dom::element element(std::string_view key) const;
  /// True when the object has the field.
  [[nodiscard]] bool has(std::string_view key) const;
  [[noreturn]] void fail(const std::string& reason) const;

 private:
  simdjson::dom::object object_;
  const std::filesystem::path& path_;
  std::size_t line_;
};

}  // namespace claimrag::dataset
