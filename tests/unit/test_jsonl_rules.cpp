// The rules every JSON Lines reader shares (dataset::for_each_json_object): a key repeated in one
// object is refused by file and line.

#include <gtest/gtest.h>

#include <string>

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
