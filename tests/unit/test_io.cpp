#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/io/mapped_file.hpp"
#include "claimrag/io/text_lines.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using namespace claimrag;

namespace {
std::vector<std::string> lines_of(std::string_view contents) {
  std::vector<std::string> lines;
  io::for_each_line(contents, [&](const io::Line& line) {
    lines.push_back(std::to_string(line.number) + ":" + std::string(line.text));
  });
  return lines;
}
}  // namespace

TEST(TextLines, SplitsOnNewlinesAndNumbersFromOne) {
  EXPECT_EQ(lines_of("a\nb\n"), (std::vector<std::string>{"1:a", "2:b"}));
  EXPECT_EQ(lines_of("a\n\nc"), (std::vector<std::string>{"1:a", "2:", "3:c"}));
  EXPECT_TRUE(lines_of("").empty());
}

TEST(TextLines, StripsCarriageReturnsAndByteOrderMark) {
  EXPECT_EQ(lines_of("\xEF\xBB\xBFx\r\ny\r\n"), (std::vector<std::string>{"1:x", "2:y"}));
}

TEST(TextLines, BlankMeansOnlyWhitespace) {
  EXPECT_TRUE(io::is_blank(" \t"));
  EXPECT_TRUE(io::is_blank(""));
  EXPECT_FALSE(io::is_blank(" x "));
}

// Values are checked a block of 1,024 at a time: a bad value is found first wherever it sits, at
// either end of a block, in the last partial block, beside another bad value later on.
template <typename T>
void expect_first_non_finite_found() {
  std::vector<T> values(2500, T{1});
  values[3] = std::numeric_limits<T>::max();
  values[4] = std::numeric_limits<T>::denorm_min();
  values[5] = std::numeric_limits<T>::lowest();
  values[6] = T{-0.0};
  EXPECT_EQ(io::first_non_finite(values.data(), values.size()), values.size());
  EXPECT_EQ(io::first_non_finite(values.data(), 0), 0U);
  for (const std::size_t at : {std::size_t{0}, std::size_t{1023}, std::size_t{1024}, std::size_t{2047}, std::size_t{2048}, std::size_t{2499}}) {
    for (const T bad : {std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity()}) {
      std::vector<T> with_bad = values;
      with_bad[at] = bad;
      if (at + 1 < with_bad.size()) with_bad.back() = std::numeric_limits<T>::quiet_NaN();
      EXPECT_EQ(io::first_non_finite(with_bad.data(), with_bad.size()), at) << bad << " at " << at;
      EXPECT_EQ(io::first_non_finite(with_bad.data(), at), at) << "before " << at;
    }
  }
}

TEST(FiniteValues, TheFirstNaNOrInfinityIsFoundWhereverItSits) {
  expect_first_non_finite_found<float>();
  expect_first_non_finite_found<double>();
}

TEST(Checksum, KnownXxh64Values) {
  // Reference values of XXH64 with seed 0.
  EXPECT_EQ(io::checksum_hex(""), "ef46db3751d8e999");
  EXPECT_EQ(io::checksum_hex("a"), "d24ec4f1a98c6e5b");
}

TEST(AtomicFile, CommitMovesIntoPlaceAndAbandonLeavesNothing) {
  const fs::path folder = claimrag::testing::unique_temp_path("claimrag_test_atomic");
  fs::remove_all(folder);
  {
    io::AtomicFile file(folder / "sub" / "kept.txt");
    file.stream() << "hello";
    file.commit();
  }
  EXPECT_EQ(io::read_file(folder / "sub" / "kept.txt"), "hello");
  {
    io::AtomicFile file(folder / "sub" / "dropped.txt");
    file.stream() << "partial";
  }
  EXPECT_FALSE(fs::exists(folder / "sub" / "dropped.txt"));
  EXPECT_EQ(std::distance(fs::directory_iterator(folder / "sub"), fs::directory_iterator()), 1);
  fs::remove_all(folder);
}

TEST(ReadFile, MissingFileIsADataErrorNamingIt) {
  try {
    io::read_file("/nonexistent/claimrag/file.jsonl");
    FAIL() << "no exception";
  } catch (const DataError& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/claimrag/file.jsonl"), std::string::npos);
    EXPECT_EQ(error.exit_code(), ExitCode::data);
  }
}

TEST(MappedFile, MapsTheBytesAndKeepsThemAcrossAMove) {
  claimrag::testing::TempFolder folder;
  const auto path = folder.write("data.bin", std::string("abc\0def", 7));
  io::MappedFile mapped(path);
  ASSERT_EQ(mapped.bytes().size(), 7u);
  const std::byte* where = mapped.bytes().data();
  EXPECT_EQ(std::memcmp(where, "abc\0def", 7), 0);
  io::MappedFile moved(std::move(mapped));
  EXPECT_EQ(moved.bytes().data(), where);
  EXPECT_TRUE(mapped.bytes().empty());  // NOLINT(bugprone-use-after-move): a moved-from mapping is empty
  EXPECT_TRUE(io::MappedFile(folder.write("empty.bin", "")).bytes().empty());
}

TEST(MappedFile, MissingFileOrFolderIsADataErrorNamingIt) {
  claimrag::testing::expect_error<DataError>([] { io::MappedFile("/nonexistent/claimrag/index.bin"); },
                                             "/nonexistent/claimrag/index.bin: cannot open");
  claimrag::testing::TempFolder folder;
  claimrag::testing::expect_error<DataError>([&] { io::MappedFile{folder.path()}; }, "is not a regular file");
}
