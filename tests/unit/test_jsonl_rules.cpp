// The rules every JSON Lines reader shares (dataset::for_each_json_object): a key repeated in one
// object, a file without any object, a line over the shared limit and (for claimrag's own formats)
// an unknown field are refused by file and line.

#include <gtest/gtest.h>

#include <fstream>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "support/temp_folder.hpp"

using claimrag::DataError;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

namespace {

std::size_t count_objects(const std::filesystem::path& file) {
  std::size_t objects = 0;
  claimrag::dataset::for_each_json_object(file, [&](simdjson::dom::object, std::size_t) { ++objects; });
  return objects;
}

}  // namespace

TEST(JsonLinesRules, AKeyRepeatedInOneObjectIsRefused) {
  TempFolder folder;
  const auto file = folder.write("pairs.jsonl", "{\"id\": \"a\", \"claim\": \"x\"}\n{\"id\": \"b\", \"claim\": \"x\", \"id\": \"c\"}\n");
  expect_error<DataError>([&] { count_objects(file); }, "pairs.jsonl:2: the key \"id\" appears twice");
}

TEST(JsonLinesRules, AFileWithoutAnyObjectIsRefused) {
  TempFolder folder;
  for (const std::string contents : {"", "\n", "  \n\r\n\t\n"}) {
    const auto file = folder.write("empty.jsonl", contents);
    expect_error<DataError>([&] { count_objects(file); }, "empty.jsonl: holds no JSON object (an empty input is refused)");
  }
  EXPECT_EQ(count_objects(folder.write("one.jsonl", "\n{}\n")), 1u);
}

TEST(JsonLinesRules, ALineOverTheSharedLimitIsRefusedAndOneAtTheLimitRead) {
  TempFolder folder;
  using claimrag::dataset::kMaxJsonLineBytes;
  // {"t": "xxx…"} of exactly kMaxJsonLineBytes bytes (the 9 bytes around the string counted), then
  // the same line one byte longer, on line 2 (ending in "\r\n": the "\r" is not counted).
  const std::string at_limit = "{\"t\": \"" + std::string(kMaxJsonLineBytes - 9, 'x') + "\"}";
  ASSERT_EQ(at_limit.size(), kMaxJsonLineBytes);
  const auto file = folder.path() / "long.jsonl";
  {
    std::ofstream out(file, std::ios::binary);
    out << at_limit << "\r\n";
  }
  EXPECT_EQ(count_objects(file), 1u);
  {
    std::ofstream out(file, std::ios::binary);
    out << at_limit << "\r\n{\"t\": \"xx" << at_limit.substr(8) << "\n";
  }
  expect_error<DataError>([&] { count_objects(file); }, "long.jsonl:2: line longer than 16 MiB (16777216 bytes)");
  {
    std::ofstream out(file, std::ios::binary);  // no line break at all: refused before the end is read
    out << "{\"t\": \"xxxxxx" << at_limit.substr(8);
  }
  expect_error<DataError>([&] { count_objects(file); }, "long.jsonl:1: line longer than 16 MiB");
}

TEST(JsonLinesRules, AnUnknownFieldIsNamedWithTheKnownOnes) {
  TempFolder folder;
  const auto file = folder.write("pairs.jsonl", "{\"id\": \"a\", \"claim\": \"x\"}\n{\"id\": \"b\", \"claims\": \"x\"}\n");
  const auto read = [&] {
    claimrag::dataset::for_each_json_object(file, [&](simdjson::dom::object object, std::size_t line) {
      const claimrag::dataset::FieldReader fields(object, file, line);
      fields.refuse_unknown({"id", "claim"});
    });
  };
  expect_error<DataError>(read, "pairs.jsonl:2: unknown field \"claims\" (expected id, claim)");
}

TEST(JsonLinesRules, ARangeParsesItsObjectsOnlyAndCountsTheRestWithTheWholeFilesChecksum) {
  TempFolder folder;
  // Objects 0..4 (blank lines are not objects); object 1 and object 4 are not JSON at all.
  const std::string contents = "{\"n\": 0}\nnot json\n\n{\"n\": 2}\n{\"n\": 3}\n{oops\n";
  const auto file = folder.write("corpus.jsonl", contents);
  std::vector<std::pair<std::int64_t, std::size_t>> seen;
  const auto scan = claimrag::dataset::for_each_json_object_in(
      file, {2, 2}, [&](simdjson::dom::object object, std::size_t line) {
        seen.emplace_back(object["n"].get_int64().value(), line);
      });
  EXPECT_EQ(seen, (std::vector<std::pair<std::int64_t, std::size_t>>{{2, 4}, {3, 5}}));
  EXPECT_EQ(scan.objects, 5u);
  const auto whole = folder.write("valid.jsonl", "{\"n\": 0}\n");
  EXPECT_EQ(claimrag::dataset::for_each_json_object_in(whole, {}, [](simdjson::dom::object, std::size_t) {}).checksum,
            claimrag::dataset::for_each_json_object(whole, [](simdjson::dom::object, std::size_t) {}));
  // The checksum is the whole file's, whichever objects were parsed.
  const auto first_only = claimrag::dataset::for_each_json_object_in(file, {0, 1}, [](simdjson::dom::object, std::size_t) {});
  EXPECT_EQ(first_only.checksum, scan.checksum);
  // A bad object inside the range is still refused by its line.
  expect_error<DataError>(
      [&] { (void)claimrag::dataset::for_each_json_object_in(file, {1, 1}, [](simdjson::dom::object, std::size_t) {}); },
      "corpus.jsonl:2: malformed JSON");
  expect_error<DataError>(
      [&] { (void)claimrag::dataset::for_each_json_object_in(file, {4, 9}, [](simdjson::dom::object, std::size_t) {}); },
      "corpus.jsonl:6: malformed JSON");
}
