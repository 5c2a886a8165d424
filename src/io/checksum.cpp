#include "claimrag/io/checksum.hpp"

#include <xxhash.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "claimrag/io/input_file.hpp"

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
  InputFile in(path, kStreamedInput);
  const std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> state(XXH64_createState(), &XXH64_freeState);
  XXH64_reset(state.get(), 0);
  std::vector<char> block(1 << 16);
  for (std::size_t got; (got = in.read(block.data(), block.size())) > 0;) XXH64_update(state.get(), block.data(), got);
  return checksum_hex_of(XXH64_digest(state.get()));
}

}  // namespace claimrag::io
