#pragma once
// Checksums that artefacts carry so that a load from a different input is refused.

#include <cstdint>
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace claimrag::io {

/// XXH64 (seed 0) of the bytes.
std::uint64_t xxh64(std::string_view bytes);
/// The same, of raw bytes (the blocks of a binary file image).
std::uint64_t xxh64(std::span<const std::byte> bytes);

/// The same checksum as 16 lower-case hexadecimal digits.
std::string checksum_hex(std::string_view bytes);

/// A checksum computed elsewhere (a streamed XXH64) in checksum_hex's form.
std::string checksum_hex_of(std::uint64_t checksum);

/// checksum_hex of a whole file's bytes; throws DataError when it cannot be read.
std::string file_checksum(const std::filesystem::path& path);

}  // namespace claimrag::io
