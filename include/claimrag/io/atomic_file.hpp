#pragma once
// Writing artefacts so that an interrupted run never leaves a half-written file that looks whole:
// bytes go to a temporary file beside the target (io/temporary_names.hpp), which is renamed into
// place on commit(). Before writing, the temporaries a killed run left for the same target are
// removed, and file sets it was committing are finished (io/atomic_file_set.hpp).

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "claimrag/io/file_output.hpp"
#include "claimrag/io/input_file.hpp"  // read_file, the reading side of the same files

namespace claimrag::io {

/// A file being written. Write through stream(), then commit(); if the object is destroyed
/// without commit() (an exception, say), the temporary file is removed and the target untouched.
/// Parent folders of the target are created as needed. Failures are DataErrors naming the
/// target and the system's reason ("no space left on device").
class AtomicFile {
 public:
  /// `binary` is kept for callers' clarity: bytes are written as given either way.
  explicit AtomicFile(std::filesystem::path target, bool binary = false);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_->stream(); }
  /// Flushes, checks that every write succeeded, and renames the file into place.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  std::unique_ptr<FileOutput> out_;
  bool committed_ = false;
};

/// Creates the folders above `target` as needed; DataError naming the folder when it cannot.
void create_parent_folder(const std::filesystem::path& target);

/// What every atomic writer does before writing `target`: creates its folder, finishes or clears
/// a file set an interrupted run was committing beside it, and removes the temporaries that dead
/// writers left for it.
void prepare_to_write(const std::filesystem::path& target);

/// Writes a whole file atomically.
void write_file_atomically(const std::filesystem::path& target, std::string_view contents,
                           bool binary = false);

}  // namespace claimrag::io
