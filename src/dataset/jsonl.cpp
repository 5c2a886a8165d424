#include "claimrag/dataset/jsonl.hpp"

#include "claimrag/dataset/identifier.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/text_lines.hpp"

namespace claimrag::dataset {

std::string for_each_json_object(
    const std::filesystem::path& path,
    const std::function<void(simdjson::dom::object object, std::size_t line)>& visit) {
  simdjson::padded_string contents;
  if (simdjson::padded_string::load(path.string()).get(contents) != simdjson::SUCCESS) {
    std::error_code error;
    throw DataError(path.string(),
                    std::filesystem::exists(path, error) ? "cannot read" : "no such file");
  }
  const std::string_view all(contents.data(), contents.size());
  simdjson::dom::parser parser;
  io::for_each_line(all, [&](const io::Line& line) {
    if (io::is_blank(line.text)) return;
    // The padded buffer runs past every line, so lines are parsed in place without copying.
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
    visit(object, line.number);
  });
  return io::checksum_hex(all);
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
  throw DataError(path_.string(), line_, reason);
}

bool FieldReader::has(std::string_view key) const {
  simdjson::dom::element value;
  return object_.at_key(key).get(value) == simdjson::SUCCESS;
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
