#include "claimrag/io/checksum.hpp"

#include <xxhash.h>

#include <cstdio>

#include "claimrag/io/atomic_file.hpp"

namespace claimrag::io {

std::uint64_t xxh64(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

std::string checksum_hex(std::string_view bytes) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(xxh64(bytes)));
  return digits;
}

std::string file_checksum(const std::filesystem::path& path) {
  return checksum_hex(read_file(path));
}

}  // namespace claimrag::io
