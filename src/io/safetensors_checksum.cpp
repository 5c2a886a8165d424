#include "claimrag/io/safetensors_checksum.hpp"

#include <cstdint>

#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"

namespace claimrag::io {
namespace {

constexpr std::size_t kLengthBytes = 8;
constexpr std::size_t kDigits = 16;
const std::string kPlaceholder(kDigits, '0');

// String values are escaped in JSON text, so `"claimrag_checksum":"` with bare quotes can only
// be the key itself; a file holding it twice is refused rather than guessed at.
std::string key_pattern() { return std::string("\"") + kSafetensorsChecksumKey + "\":\""; }

std::uint64_t header_length(std::string_view bytes) {
  std::uint64_t length = 0;
  for (std::size_t i = 0; i < kLengthBytes; ++i) {
    length |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return length;
}

// The position of the 16 digits in `bytes`, or npos when the header has no (single) checksum.
std::size_t digits_position(std::string_view bytes) {
  if (bytes.size() < kLengthBytes) return std::string_view::npos;
  const std::uint64_t length = header_length(bytes);
  if (length > bytes.size() - kLengthBytes) return std::string_view::npos;
  const std::string_view header = bytes.substr(kLengthBytes, length);
  const std::string pattern = key_pattern();
  const std::size_t found = header.find(pattern);
  if (found == std::string_view::npos || header.find(pattern, found + 1) != std::string_view::npos) {
    return std::string_view::npos;
  }
  const std::size_t digits = found + pattern.size();
  if (digits + kDigits >= header.size() || header[digits + kDigits] != '"') return std::string_view::npos;
  return kLengthBytes + digits;
}

std::string checksum_with_placeholder(std::string_view bytes, std::size_t position) {
  std::string copy(bytes);
  copy.replace(position, kDigits, kPlaceholder);
  return checksum_hex(copy);
}

}  // namespace

std::string safetensors_file_bytes(nlohmann::json header, std::string_view data) {
  header["__metadata__"][kSafetensorsChecksumKey] = kPlaceholder;
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // keeps the tensors 8-byte aligned
  std::string bytes(kLengthBytes, '\0');
  for (std::size_t i = 0; i < kLengthBytes; ++i) {
    bytes[i] = static_cast<char>((static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xFFu);
  }
  bytes += text;
  bytes += data;
  if (!reseal_safetensors(bytes)) throw InternalError("safetensors_file_bytes: the checksum field was not written");
  return bytes;
}

void verify_safetensors_checksum(std::string_view bytes, const std::string& file) {
  const std::size_t position = digits_position(bytes);
  if (position == std::string_view::npos) {
    throw DataError(file, std::string("has no ") + kSafetensorsChecksumKey +
                              ": not written by this claimrag, or damaged; rebuild it");
  }
  if (bytes.substr(position, kDigits) != checksum_with_placeholder(bytes, position)) {
    throw DataError(file, "checksum mismatch: the file is damaged (a changed byte would change results)");
  }
}

bool reseal_safetensors(std::string& bytes) {
  const std::size_t position = digits_position(bytes);
  if (position == std::string::npos) return false;
  bytes.replace(position, kDigits, checksum_with_placeholder(bytes, position));
  return true;
}

}  // namespace claimrag::io
