#include "claimrag/io/checksum.hpp"

#include <xxhash.h>

#include <cstdio>
#include <fstream>
#include <vector>

#include "claimrag/error.hpp"

#include "claimrag/io/atomic_file.hpp"

namespace claimrag::io {

std::uint64_t xxh64(std::string_view bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

std::uint64_t xxh64(std::span<const std::byte> bytes) { return XXH64(bytes.data(), bytes.size(), 0); }

std::string checksum_hex_of(std::uint64_t checksum) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(checksum));
  return digits;
}

std::string checksum_hex(std::string_view bytes) { return checksum_hex_of(xxh64(bytes)); }

std::string file_checksum(const std::filesystem::path& path) {
  // Streamed in blocks: a checksum need not hold the whole file in memory.
  std::ifstream in(path, std::ios::in | std::ios::binary);
  if (!in) read_file(path);  // throws the same DataError as every other read
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  std::vector<char> block(1 << 16);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    XXH64_update(state, block.data(), static_cast<std::size_t>(in.gcount()));
  }
  const bool failed = in.bad();
  const auto digest = XXH64_digest(state);
  XXH64_freeState(state);
  if (failed) throw DataError(path.string(), "read failed");
  return checksum_hex_of(digest);
}

}  // namespace claimrag::io
