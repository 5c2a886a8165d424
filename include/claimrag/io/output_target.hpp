#pragma once
// What may be written where: the rules every writer of claimrag follows before it writes a file,
// so that no output can destroy an input, another output, a device node or a file the user made
// read-only (docs/outputs.md).
//
// - A character device or FIFO (/dev/null, /dev/stdout, a named pipe) is written through: opened
//   and written in place, never replaced by a regular file.
// - A symbolic link to a regular file is followed: the file it names is replaced atomically and
//   the link stays a link.
// - A folder, a block device or a socket where a file is to be written is refused.
// - An existing regular file without any write permission bit (chmod a-w), or that the user may
//   not write, is refused, as cp refuses it; so is a file in a folder the user may not write.

#include <sys/types.h>

#include <filesystem>
#include <string>

namespace claimrag::io {

/// Where the bytes of an output go.
struct OutputTarget {
  std::filesystem::path path;  ///< the file to write: the given path with symbolic links followed
  bool write_through = false;  ///< a character device or FIFO: write in place, no temporary, no rename
};

/// Applies the rules above to `path` (a file output, existing or not); DataError naming `path`
/// and the reason when it may not be written. Creates nothing.
OutputTarget resolve_output(const std::filesystem::path& path);

/// Checks that `path` can be a folder output: an existing folder or a creatable one, writable.
void check_output_folder(const std::filesystem::path& path);

/// What makes two paths the same file: the device and inode of the file, or of its nearest
/// existing folder plus the rest of the path when it does not exist yet. Symbolic links are
/// followed, so that `a`, `./a`, a hard link to `a` and a link to `a` are one file.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  std::string rest;             ///< the part of the path below the existing folder, "" when it exists
  bool device_node = false;     ///< a character device or FIFO: shared by design (/dev/null), never a conflict
  bool operator==(const FileIdentity& other) const {
    return device == other.device && inode == other.inode && rest == other.rest;
  }
};

/// The identity of `path` (see FileIdentity).
FileIdentity identity_of(const std::filesystem::path& path);

/// An exclusive advisory lock (flock) on a folder, held while the object lives. Commits of file
/// sets into one folder take it, so that two runs writing the same set never interleave their
/// renames: the set is whole from one run or the other. Blocks until the lock is free.
class FolderLock {
 public:
  explicit FolderLock(const std::filesystem::path& folder);
  ~FolderLock();
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int descriptor_ = -1;
};

}  // namespace claimrag::io
