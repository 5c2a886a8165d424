#include "claimrag/io/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "claimrag/error.hpp"

namespace claimrag::io {

MappedFile::MappedFile(const std::filesystem::path& path) {
  const auto fail = [&](const char* what) {
    return DataError(path.string(), std::string(what) + ": " + std::strerror(errno));
  };
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) throw fail("cannot open");
  struct stat status {};
  if (::fstat(descriptor, &status) != 0) {
    const auto error = fail("cannot read its size");
    ::close(descriptor);
    throw error;
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(descriptor);
    throw DataError(path.string(), "is not a regular file");
  }
  size_ = static_cast<std::size_t>(status.st_size);
  if (size_ > 0) {
    void* mapped = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, descriptor, 0);
    if (mapped == MAP_FAILED) {
      const auto error = fail("cannot map");
      ::close(descriptor);
      throw error;
    }
    data_ = static_cast<const std::byte*>(mapped);
  }
  // The mapping keeps the file's pages reachable without the descriptor.
  ::close(descriptor);
}

MappedFile::~MappedFile() { release(); }

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void MappedFile::release() {
  if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace claimrag::io
