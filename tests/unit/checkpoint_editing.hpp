#pragma once
// Copies of the fixture checkpoints with one thing changed, and the error a load then throws, for
// the loading tests.

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/pretrained/pretrained_model.hpp"
#include "pretrained_fixture.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::testing {

/// A copy of the fixture checkpoint `name` inside `temp`.
inline std::filesystem::path copy_checkpoint(const TempFolder& temp, const std::string& name) {
  const auto target = temp.path() / name;
  std::filesystem::copy(fixture_checkpoint(name), target, std::filesystem::copy_options::recursive);
  return target;
}

/// Rewrites `file`'s safetensors header (and, if asked, its data) in place; the header is written
/// as `edit` leaves it, so the caller may also write raw header text through `raw_header`.
inline void edit_safetensors(const std::filesystem::path& file,
                             const std::function<void(nlohmann::json&, std::string&)>& edit) {
  const std::string bytes = io::read_file(file);
  std::uint64_t length = 0;
  std::memcpy(&length, bytes.data(), sizeof length);
  nlohmann::json header = nlohmann::json::parse(bytes.substr(8, length));
  std::string data = bytes.substr(8 + length);
  edit(header, data);
  const std::string text = header.dump();
  const std::uint64_t new_length = text.size();
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(&new_length), sizeof new_length);
  out << text << data;
}

/// The message of the error `load` throws, which must be of type `Expected`.
template <typename Expected>
std::string error_of(const std::function<void()>& load) {
  try {
    load();
  } catch (const Expected& error) {
    return error.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

/// The message of the DataError loading `folder` throws.
inline std::string load_error(const std::filesystem::path& folder) {
  return error_of<DataError>([&] { (void)pretrained::load_pretrained_model(folder); });
}

inline void expect_contains(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
}

}  // namespace claimrag::testing
