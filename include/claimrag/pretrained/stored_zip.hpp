#pragma once
// The entries of a zip archive whose members are stored uncompressed, as PyTorch's saver writes
// `pytorch_model.bin`: each member's bytes are a plain range of the file, so a mapped archive is
// read in place. Compressed, encrypted or split archives are refused, not inflated.

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace claimrag::pretrained {

/// Where a member's bytes lie inside the archive.
struct ZipEntry {
  std::uint64_t begin = 0;
  std::uint64_t size = 0;
};

/// The members of the archive `bytes` by name, read from its central directory (zip64 included).
/// DataError naming `file` for a file that is not a zip archive, a member that is compressed
/// (the message names its method), encrypted or lies outside the file, or a name given twice.
std::map<std::string, ZipEntry> stored_zip_entries(std::span<const std::byte> bytes, const std::string& file);

}  // namespace claimrag::pretrained
