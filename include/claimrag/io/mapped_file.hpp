#pragma once
// A whole file mapped read-only into memory: opening costs a system call whatever the size, pages
// are read on first touch, and every process mapping the same file shares the page cache.

#include <cstddef>
#include <filesystem>
#include <span>

namespace claimrag::io {

/// A read-only mapping of one file, unmapped on destruction. Movable, not copyable; the bytes stay
/// at the same address when the object moves.
class MappedFile {
 public:
  MappedFile() = default;
  /// Maps `path`; a missing or unreadable file is a DataError naming it. An empty file maps to no bytes.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  [[nodiscard]] std::span<const std::byte> bytes() const { return {data_, size_}; }

 private:
  void release();
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace claimrag::io
