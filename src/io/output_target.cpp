#include "claimrag/io/output_target.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "claimrag/error.hpp"
#include "claimrag/io/file_output.hpp"
#include "claimrag/io/temporary_names.hpp"

namespace claimrag::io {
namespace {

namespace fs = std::filesystem;

fs::path folder_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

// The file a symbolic link finally names, even when that file does not exist yet (a dangling link
// is written through to the file it names, as the shell's `>` does).
fs::path follow_links(const fs::path& path) {
  fs::path current = path;
  for (int depth = 0; depth < 40; ++depth) {
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(current, error))) return current;
    const fs::path link = fs::read_symlink(current, error);
    if (error) throw DataError(current.string(), "cannot read symbolic link: " + error.message());
    current = link.is_absolute() ? link : folder_of(current) / link;
  }
  throw DataError(path.string(), "too many levels of symbolic links");
}

// The nearest existing folder at or above `folder`; DataError when something other than a
// folder stands in the way.
fs::path existing_folder_above(const fs::path& folder, const fs::path& shown) {
  fs::path current = folder.empty() ? fs::path(".") : folder;
  while (true) {
    struct stat status {};
    if (::stat(current.c_str(), &status) == 0) {
      if (!S_ISDIR(status.st_mode)) throw DataError(shown.string(), "cannot create folder: " + current.string() + " is not a folder");
      return current;
    }
    if (errno != ENOENT || current == "." || current.parent_path() == current) {
      throw DataError(shown.string(), "cannot reach folder " + current.string() + ": " + system_reason(errno));
    }
    // A relative path's search ends at the working folder ("runs" has no parent path, but ".").
    current = current.has_parent_path() ? current.parent_path() : fs::path(".");
  }
}

void check_folder_writable(const fs::path& folder, const fs::path& shown) {
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw DataError(shown.string(), "cannot write into folder " + folder.string() + ": " + system_reason(errno));
  }
}

}  // namespace

OutputTarget resolve_output(const fs::path& path) {
  if (path.empty()) throw UsageError("an output path is empty");
  const fs::path shown = shown_target(path);  // a staged temporary is named as its output
  const fs::path target = follow_links(path);
  struct stat status {};
  if (::stat(target.c_str(), &status) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) throw DataError(shown.string(), "cannot write: " + system_reason(errno));
    check_folder_writable(existing_folder_above(folder_of(target), shown), shown);
    return {target, false};
  }
  const mode_t type = status.st_mode & S_IFMT;
  if (type == S_IFDIR) throw DataError(shown.string(), "is a folder, not a file: refusing to write over it");
  if (type == S_IFCHR || type == S_IFIFO) {
    if (::access(target.c_str(), W_OK) != 0) throw DataError(shown.string(), "cannot write: " + system_reason(errno));
    return {target, true};
  }
  if (type != S_IFREG) throw DataError(shown.string(), "is a block device or socket: refusing to replace it");
  // No write bit at all is the user's "keep this" even for root, whose access() always succeeds.
  if ((status.st_mode & 0222) == 0 || ::access(target.c_str(), W_OK) != 0) {
    throw DataError(shown.string(), "is read-only: refusing to replace it (make it writable or choose another output)");
  }
  check_folder_writable(folder_of(target), shown);
  return {target, false};
}

void check_output_folder(const fs::path& path) {
  if (path.empty()) throw UsageError("an output folder path is empty");
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0) {
    if (!S_ISDIR(status.st_mode)) throw DataError(path.string(), "is not a folder: refusing to write a folder over it");
    check_folder_writable(path, path);
    return;
  }
  check_folder_writable(existing_folder_above(folder_of(path), path), path);
}

FileIdentity identity_of(const fs::path& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0) {
    const mode_t type = status.st_mode & S_IFMT;
    return {status.st_dev, status.st_ino, "", type == S_IFCHR || type == S_IFIFO};
  }
  // Not there yet: the nearest existing folder (links followed by stat) and the rest of the path.
  fs::path current = fs::absolute(follow_links(path)).lexically_normal();
  fs::path rest;
  while (current.has_parent_path() && current.parent_path() != current) {
    rest = rest.empty() ? current.filename() : current.filename() / rest;
    current = current.parent_path();
    if (::stat(current.c_str(), &status) == 0) return {status.st_dev, status.st_ino, rest.string(), false};
  }
  return {0, 0, fs::absolute(path).lexically_normal().string(), false};
}

FolderLock::FolderLock(const fs::path& folder) {
  const fs::path opened = folder.empty() ? fs::path(".") : folder;
  descriptor_ = ::open(opened.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (descriptor_ < 0) throw DataError(opened.string(), "cannot open folder to lock it: " + system_reason(errno));
  while (::flock(descriptor_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(descriptor_);
    throw DataError(opened.string(), "cannot lock folder: " + system_reason(error));
  }
}

FolderLock::~FolderLock() {
  if (descriptor_ >= 0) ::close(descriptor_);  // closing releases the lock
}

}  // namespace claimrag::io
