#pragma once
// A file written through a POSIX descriptor behind a std::ostream, so that a failed write is
// reported with its real cause ("no space left on device") and the path, which std::ofstream
// loses: it only sets badbit.

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

namespace claimrag::io {

/// The system's message for errno value `error`, lower-cased to read as part of a sentence after
/// "cannot write: " ("no space left on device").
std::string system_reason(int error);

/// An open file for writing (created or truncated). Write through stream(), then finish().
class FileOutput {
 public:
  /// Opens `path`; DataError naming `shown` (the path the user knows, e.g. the target of a
  /// temporary file) and the system's reason when it cannot.
  FileOutput(const std::filesystem::path& path, std::string shown);
  ~FileOutput();
  FileOutput(const FileOutput&) = delete;
  FileOutput& operator=(const FileOutput&) = delete;

  std::ostream& stream();
  /// Flushes and closes; DataError "<shown>: cannot write: <reason>" if any write failed.
  void finish();

 private:
  class Buffer;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
  std::string shown_;
};

}  // namespace claimrag::io
