#pragma once
// What every fuzz target shares. A target hands libFuzzer's bytes to the entry point claimrag
// itself calls on outside bytes, most of which read a path: the bytes are written to a file in a
// folder of the process's own first. The outcome rule: returning, or refusing the input with an
// error claimrag defines for bad input (UsageError, DataError), is a pass; an InternalError (an
// invariant of claimrag's own broken), any other exception, a crash, a hang, a sanitizer report or
// running out of memory is a finding, and aborts so that libFuzzer keeps the input.

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

#include "claimrag/error.hpp"

namespace claimrag::fuzz {

/// A folder of this process's own (so that targets run in parallel do not share files), made on
/// first use and removed at exit. Readers' warnings are silenced with it: they are not findings,
/// and writing them would slow every run.
inline const std::filesystem::path& scratch_folder() {
  static const std::filesystem::path folder = [] {
    spdlog::set_level(spdlog::level::off);
    std::string pattern = (std::filesystem::temp_directory_path() / "claimrag-fuzz-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_folder(), ignored);
    });
    return std::filesystem::path(pattern);
  }();
  return folder;
}

/// The bytes as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Writes `bytes` to `folder`/`name` (the folder made when missing) and returns its path.
inline std::filesystem::path write_file(const std::filesystem::path& folder, const std::string& name,
                                        std::string_view bytes) {
  std::filesystem::create_directories(folder);
  const auto path = folder / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    std::perror(path.c_str());
    std::abort();
  }
  return path;
}

/// Writes the bytes to scratch_folder()/`name`.
inline std::filesystem::path write_scratch(const std::string& name, const std::uint8_t* data, std::size_t size) {
  return write_file(scratch_folder(), name, as_text(data, size));
}

/// Runs `read` under the outcome rule above.
template <class Read>
void expect_result_or_refusal(Read&& read) {
  try {
    read();
  } catch (const InternalError& error) {
    std::fprintf(stderr, "finding: InternalError: %s\n", error.what());
    std::abort();
  } catch (const UsageError&) {
  } catch (const DataError&) {
  }
}

}  // namespace claimrag::fuzz
