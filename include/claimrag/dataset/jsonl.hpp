#pragma once
// Reading JSON Lines files with simdjson: every non-blank line parsed and fully validated, each
// failure reported as `file:line: reason`. Every JSON Lines input of claimrag is read here, so that
// all of them follow one set of rules (docs/inputs.md): a file without any JSON object is refused,
// a key repeated in one object is refused, a line is at most kMaxJsonLineBytes long, and a reader
// of one of claimrag's own formats refuses a field it does not know (FieldReader::refuse_unknown).

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

namespace claimrag::dataset {

/// The longest JSON Lines line read, in bytes. A limit bounds the memory that a file without line
/// breaks (a binary or a whole JSON array passed by mistake) can take before it is refused; it is
/// set far above real lines: SciFact's longest (a corpus abstract) is 10,375 bytes, and a whole
/// scientific paper's full text in one JSON string is a few hundred kilobytes.
inline constexpr std::size_t kMaxJsonLineBytes = std::size_t{16} << 20;

/// Calls `visit(object, line_number)` for every non-blank line of the file, which must be a JSON
/// object. Throws DataError for a missing file, a malformed line, a key repeated in one object, a
/// line over `max_line_bytes` (kMaxJsonLineBytes unless the format sets its own), and a file holding no JSON object at all (empty or blank). Returns the checksum
/// (io::checksum_hex) of the file's bytes, so callers need not read the file twice.
std::string for_each_json_object(
    const std::filesystem::path& path,
    const std::function<void(simdjson::dom::object object, std::size_t line)>& visit,
    std::size_t max_line_bytes = kMaxJsonLineBytes);

/// The objects of a JSON Lines file that a reader parses: those at 0-based positions among the
/// file's non-blank lines in [first, first + count).
struct ObjectRange {
  std::uint64_t first = 0;
  std::uint64_t count = std::numeric_limits<std::uint64_t>::max();
};

/// What a whole pass over a JSON Lines file saw: the checksum of its bytes and its objects (non-blank lines).
struct JsonLinesScan {
  std::string checksum;
  std::uint64_t objects = 0;
};

/// As for_each_json_object, for the objects in `range` only: every other non-blank line is counted,
/// not parsed nor checked. Still reads and hashes every byte, so the checksum ties the file to a
/// pass that did check it whole. Throws DataError for a file without non-blank lines.
JsonLinesScan for_each_json_object_in(const std::filesystem::path& path, ObjectRange range,
                                      const std::function<void(simdjson::dom::object object, std::size_t line)>& visit,
                                      std::size_t max_line_bytes = kMaxJsonLineBytes);

/// Field accessors that throw DataError(file, line, reason) naming the field. `place`, when given,
/// starts every reason: it names an object nested in the line's (`"context"[2]: `).
class FieldReader {
 public:
  FieldReader(simdjson::dom::object object, const std::filesystem::path& path, std::size_t line, std::string place = "")
      : object_(object), path_(path), line_(line), place_(std::move(place)) {}
  /// A required string field.
  [[nodiscard]] std::string string(std::string_view key) const;
  /// A required string holding more than whitespace ("\"KEY\" is empty" otherwise).
  [[nodiscard]] std::string text(std::string_view key) const;
  /// A string field that may be absent (then `fallback`).
  [[nodiscard]] std::string optional_string(std::string_view key, std::string_view fallback) const;
  /// A required identifier: a JSON string obeying dataset/identifier.hpp's rule, or an integer
  /// written in decimal.
  [[nodiscard]] std::string identifier(std::string_view key) const;
  /// A required field of any type.
  [[nodiscard]] simdjson::dom::element element(std::string_view key) const;
  /// True when the object has the field.
  [[nodiscard]] bool has(std::string_view key) const;
  /// Fails with `unknown field "KEY" (expected A, B)` for the first field of the object not in `known`.
  void refuse_unknown(std::initializer_list<std::string_view> known) const;
  [[noreturn]] void fail(const std::string& reason) const;

 private:
  simdjson::dom::object object_;
  const std::filesystem::path& path_;
  std::size_t line_;
  std::string place_;
};

}  // namespace claimrag::dataset
