#include "claimrag/dataset/jsonl.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "claimrag/dataset/identifier.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/text_lines.hpp"

namespace claimrag::dataset {

namespace {

/// Bytes read at a time; a longer line grows the buffer.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

[[noreturn]] void refuse_long_line(const std::filesystem::path& path, std::size_t number, std::size_t limit) {
  throw DataError(path.string(), number,
                  "line longer than " + std::to_string(limit >> 20) + " MiB (" + std::to_string(limit) + " bytes), " +
                      (limit == kMaxJsonLineBytes ? "the limit of every JSON Lines input" : "the limit of this file"));
}

/// Reads `path` in chunks, hashing every byte, and calls `visit` with each line (as
/// io::for_each_line cuts them: a leading byte-order mark skipped, "\r\n" or "\n" endings, a last
/// line without a newline counted). Each line is followed in memory by at least SIMDJSON_PADDING
/// readable bytes, so simdjson parses it in place. Returns the XXH64 of the file's bytes.
std::uint64_t for_each_padded_line(const std::filesystem::path& path, std::size_t max_line_bytes,
                                   const std::function<void(const io::Line&)>& visit) {
  io::InputFile in(path, io::kStreamedInput);
  const std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> hash(XXH64_createState(), &XXH64_freeState);
  XXH64_reset(hash.get(), 0);
  std::vector<char> buffer(kChunkBytes + simdjson::SIMDJSON_PADDING);
  std::size_t begin = 0;  // the first byte of the current line
  std::size_t end = 0;    // one past the last byte read
  std::size_t number = 0;
  bool at_start = true;
  const auto emit = [&](std::size_t stop) {
    std::string_view text(buffer.data() + begin, stop - begin);
    if (at_start && text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    at_start = false;
    if (text.ends_with('\r')) text.remove_suffix(1);
    if (text.size() > max_line_bytes) refuse_long_line(path, number + 1, max_line_bytes);
    visit(io::Line{++number, text});
  };
  while (true) {
    if (begin > 0) {  // keep the unfinished line at the front
      std::memmove(buffer.data(), buffer.data() + begin, end - begin);
      end -= begin;
      begin = 0;
    }
    if (end + simdjson::SIMDJSON_PADDING == buffer.size()) buffer.resize(2 * buffer.size() - simdjson::SIMDJSON_PADDING);
    const std::size_t got = in.read(buffer.data() + end, buffer.size() - simdjson::SIMDJSON_PADDING - end);
    XXH64_update(hash.get(), buffer.data() + end, got);
    std::size_t scan = end;
    end += got;
    std::fill_n(buffer.data() + end, simdjson::SIMDJSON_PADDING, '\0');
    for (const char* newline; (newline = static_cast<const char*>(std::memchr(buffer.data() + scan, '\n', end - scan)));) {
      const auto stop = static_cast<std::size_t>(newline - buffer.data());
      emit(stop);
      begin = scan = stop + 1;
    }
    if (got == 0) break;
    // No line break in sight: refused before more is read (+ 1 for a "\r" that the line may end in;
    // + 3 for a byte-order mark at the file's start).
    if (end - begin > max_line_bytes + 4) refuse_long_line(path, number + 1, max_line_bytes);
  }
  if (begin < end) emit(end);
  return XXH64_digest(hash.get());
}

}  // namespace

JsonLinesScan for_each_json_object_in(const std::filesystem::path& path, ObjectRange range,
                                      const std::function<void(simdjson::dom::object object, std::size_t line)>& visit,
                                      std::size_t max_line_bytes) {
  simdjson::dom::parser parser;
  std::uint64_t objects = 0;
  const std::uint64_t checksum = for_each_padded_line(path, max_line_bytes, [&](const io::Line& line) {
    if (io::is_blank(line.text)) return;
    const std::uint64_t position = objects++;
    if (position < range.first || position - range.first >= range.count) return;
    simdjson::dom::element element;
    const auto error = parser.parse(line.text.data(), line.text.size(), false).get(element);
    if (error) {
      throw DataError(path.string(), line.number,
                      std::string("malformed JSON: ") + simdjson::error_message(error));
    }
    simdjson::dom::object object;
    if (element.get_object().get(object)) {
      throw DataError(path.string(), line.number, "expected a JSON object");
    }
    // simdjson keeps both values of a repeated key and reads the first: refuse the line instead.
    std::vector<std::string_view> keys;
    for (const auto field : object) {
      if (std::find(keys.begin(), keys.end(), field.key) != keys.end()) {
        throw DataError(path.string(), line.number, "the key \"" + std::string(field.key) + "\" appears twice");
      }
      keys.push_back(field.key);
    }
    visit(object, line.number);
  });
  // An empty input is almost always an upstream step that failed: refuse it rather than write an
  // empty output that looks like a result.
  if (objects == 0) throw DataError(path.string(), "holds no JSON object (an empty input is refused)");
  return {io::checksum_hex_of(checksum), objects};
}

std::string for_each_json_object(
    const std::filesystem::path& path,
    const std::function<void(simdjson::dom::object object, std::size_t line)>& visit, std::size_t max_line_bytes) {
  return for_each_json_object_in(path, ObjectRange{}, visit, max_line_bytes).checksum;
}

namespace {
// Built with append: GCC 12 misreports -Wrestrict on `"literal" + std::string(...)` chains.
std::string about_field(std::string_view key, std::string_view problem) {
  std::string message;
  message.append("\"").append(key).append("\" ").append(problem);
  return message;
}
}  // namespace

void FieldReader::fail(const std::string& reason) const {
  throw DataError(path_.string(), line_, place_ + reason);
}

bool FieldReader::has(std::string_view key) const {
  simdjson::dom::element value;
  return object_.at_key(key).get(value) == simdjson::SUCCESS;
}

void FieldReader::refuse_unknown(std::initializer_list<std::string_view> known) const {
  for (const auto field : object_) {
    if (std::find(known.begin(), known.end(), field.key) != known.end()) continue;
    std::string expected;
    for (const std::string_view key : known) expected.append(expected.empty() ? "" : ", ").append(key);
    fail("unknown field " + about_field(field.key, "(expected " + expected + ")"));
  }
}

simdjson::dom::element FieldReader::element(std::string_view key) const {
  simdjson::dom::element value;
  if (object_.at_key(key).get(value)) fail(about_field(key, "is missing"));
  return value;
}

std::string FieldReader::string(std::string_view key) const {
  std::string_view value;
  if (element(key).get_string().get(value)) fail(about_field(key, "is not a string"));
  return std::string(value);
}

std::string FieldReader::text(std::string_view key) const {
  std::string value = string(key);
  if (value.find_first_not_of(" \t\n\r\f\v") == std::string::npos) fail("\"" + std::string(key) + "\" is empty");
  return value;
}

std::string FieldReader::optional_string(std::string_view key, std::string_view fallback) const {
  if (!has(key)) return std::string(fallback);
  simdjson::dom::element value = element(key);
  if (value.is_null()) return std::string(fallback);
  return string(key);
}

std::string FieldReader::identifier(std::string_view key) const {
  const simdjson::dom::element value = element(key);
  std::string_view text;
  if (value.get_string().get(text) == simdjson::SUCCESS) {
    const std::string problem = identifier_problem(text);
    if (!problem.empty()) fail(about_field(key, "\"" + std::string(text) + "\" " + problem));
    return std::string(text);
  }
  std::int64_t number;
  if (value.get_int64().get(number) == simdjson::SUCCESS) return std::to_string(number);
  std::uint64_t unsigned_number;
  if (value.get_uint64().get(unsigned_number) == simdjson::SUCCESS) return std::to_string(unsigned_number);
  fail(about_field(key, "is neither a string nor an integer"));
}

}  // namespace claimrag::dataset
