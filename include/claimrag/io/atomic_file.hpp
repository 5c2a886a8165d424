#pragma once
// Writing artefacts so that an interrupted run never leaves a half-written file that looks whole:
// bytes go to a temporary file beside the target, which is renamed into place on commit().

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace claimrag::io {

/// A file being written. Write through stream(), then commit(); if the object is destroyed
/// without commit() (an exception, say), the temporary file is removed and the target untouched.
/// Parent folders of the target are created as needed.
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path target, bool binary = false);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  /// Flushes, checks that every write succeeded, and renames the file into place.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::ofstream out_;
  bool committed_ = false;
};

/// Writes a whole file atomically.
void write_file_atomically(const std::filesystem::path& target, std::string_view contents,
                           bool binary = false);

/// Reads a whole file; throws DataError naming the file when it is missing or unreadable.
std::string read_file(const std::filesystem::path& path);

}  // namespace claimrag::io
