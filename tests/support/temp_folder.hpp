#pragma once
// A fresh folder per test, removed afterwards, and a helper to write small files into it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <unistd.h>

namespace claimrag::testing {

/// temp/<stem>_<test name>_<pid>: unique to the running test, since CTest runs tests in
/// parallel processes and two tests must never share a scratch folder.
inline std::filesystem::path unique_temp_path(const std::string& stem) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::filesystem::temp_directory_path() /
         (stem + "_" + (info != nullptr ? std::string(info->name()) : std::string("setup")) + "_" + std::to_string(::getpid()));
}

/// How many entries `folder` holds (files and folders, not recursively).
inline std::size_t entries_in(const std::filesystem::path& folder) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()));
}

class TempFolder {
 public:
  TempFolder() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("claimrag_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
             std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// Writes `contents` to `relative` (creating folders) and returns the full path.
  std::filesystem::path write(const std::string& relative, std::string_view contents) const {
    const auto target = path_ / relative;
    std::filesystem::create_directories(target.parent_path());
    std::ofstream(target, std::ios::binary) << contents;
    return target;
  }

 private:
  std::filesystem::path path_;
};

/// Runs `action`, expecting an exception of type E whose message contains `fragment`.
template <typename E, typename Action>
void expect_error(Action&& action, const std::string& fragment) {
  try {
    action();
    ADD_FAILURE() << "expected an error containing \"" << fragment << "\"";
  } catch (const E& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
        << "message: " << error.what() << "\nexpected to contain: " << fragment;
  }
}

}  // namespace claimrag::testing
