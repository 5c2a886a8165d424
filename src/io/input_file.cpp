#include "claimrag/io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "claimrag/error.hpp"
#include "claimrag/io/file_output.hpp"

namespace claimrag::io {
namespace {

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (std::uint64_t{1} << 30) && bytes % (std::uint64_t{1} << 30) == 0) {
    return std::to_string(bytes >> 30) + " GiB";
  }
  return std::to_string(bytes >> 20) + " MiB";
}

[[noreturn]] void refuse_size(const std::string& shown, const InputRule& rule) {
  throw DataError(shown, std::string("larger than ") + size_text(rule.max_bytes) + " (" + std::to_string(rule.max_bytes) +
                             " bytes), the limit of " + rule.kind + ": refused");
}

// Refuses, by stat() alone (so that a FIFO is never opened and waited on), what `rule` does not
// read. Returns whether the file is regular.
bool check_kind(const std::filesystem::path& path, const std::string& shown, const InputRule& rule) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw DataError(shown, "no such file");
    if (errno == ELOOP) throw DataError(shown, "a loop of symbolic links (too many levels of symbolic links)");
    throw DataError(shown, "cannot read: " + system_reason(errno));
  }
  const std::string which = std::string(": ") + rule.kind + " must be a regular file";
  switch (status.st_mode & S_IFMT) {
    case S_IFREG:
      if (static_cast<std::uint64_t>(status.st_size) > rule.max_bytes) refuse_size(shown, rule);
      return true;
    case S_IFDIR: throw DataError(shown, "is a folder, not a file");
    case S_IFIFO:
      if (rule.streams) return false;
      throw DataError(shown, "is a FIFO (named pipe), not a regular file" + which);
    case S_IFCHR:
    case S_IFBLK: throw DataError(shown, "is a device, not a regular file" + which + (rule.streams ? " or a pipe" : ""));
    default: throw DataError(shown, "is a socket, not a regular file" + which + (rule.streams ? " or a pipe" : ""));
  }
}

}  // namespace

InputFile::InputFile(const std::filesystem::path& path, const InputRule& rule) : shown_(path.string()), rule_(rule) {
  const bool regular = check_kind(path, shown_, rule_);
  descriptor_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor_ < 0) throw DataError(shown_, "cannot open for reading: " + system_reason(errno));
  if (regular) {
    struct stat status {};
    if (::fstat(descriptor_, &status) != 0) {
      const int error = errno;
      ::close(descriptor_);
      throw DataError(shown_, "cannot read its size: " + system_reason(error));
    }
    regular_size_ = static_cast<std::uint64_t>(status.st_size);
    // The file may have been replaced between stat() and open(): the descriptor's own size counts.
    if (!S_ISREG(status.st_mode) || regular_size_ > rule_.max_bytes) {
      ::close(descriptor_);
      if (!S_ISREG(status.st_mode)) throw DataError(shown_, "is no longer a regular file");
      refuse_size(shown_, rule_);
    }
  }
}

InputFile::~InputFile() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

std::size_t InputFile::read(char* buffer, std::size_t size) {
  // One byte past the limit is asked for, so that a pipe of exactly the limit is accepted.
  const std::uint64_t allowed = rule_.max_bytes == UINT64_MAX ? UINT64_MAX : rule_.max_bytes + 1 - read_so_far_;
  if (size > allowed) size = static_cast<std::size_t>(allowed);
  while (true) {
    const ssize_t got = ::read(descriptor_, buffer, size);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw DataError(shown_, "read failed: " + system_reason(errno));
    read_so_far_ += static_cast<std::uint64_t>(got);
    if (read_so_far_ > rule_.max_bytes) refuse_size(shown_, rule_);
    return static_cast<std::size_t>(got);
  }
}

std::string read_file(const std::filesystem::path& path, const InputRule& rule) {
  InputFile file(path, rule);
  std::string contents;
  if (file.regular_size() > 0) {
    // One allocation of the file's size and one read: large inputs are read often.
    contents.resize(static_cast<std::size_t>(file.regular_size()));
    std::size_t done = 0;
    while (done < contents.size()) {
      const std::size_t got = file.read(contents.data() + done, contents.size() - done);
      if (got == 0) break;
      done += got;
    }
    contents.resize(done);  // a file that shrank while it was read
  }
  // A pipe (or a file that grew) is read in blocks, each bounded by the rule.
  char block[1 << 16];
  for (std::size_t got; (got = file.read(block, sizeof block)) > 0;) contents.append(block, got);
  return contents;
}

}  // namespace claimrag::io
