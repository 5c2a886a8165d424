#pragma once
// The container of every binary artefact claimrag writes (indexes, document matrices):
//
//   "CLAIMRAG" (8 bytes) | u32 kind length | kind | u32 format version
//   | u64 metadata length | metadata (JSON text) | u64 payload length | payload
//   | u64 XXH64 of every byte before it
//
// all integers little-endian. A load names the kind and version it expects and refuses anything
// else, a truncated file or a checksum mismatch with a DataError naming the file.

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace claimrag::io {

/// Appends little-endian binary values to a byte buffer.
class BinaryWriter {
 public:
  template <typename T>
  void put(T value) {
    static_assert(std::is_arithmetic_v<T>);
    append(&value, sizeof value);
  }
  void put_string(std::string_view text);
  template <typename T>
  void put_vector(const std::vector<T>& values) {
    static_assert(std::is_arithmetic_v<T>);
    put<std::uint64_t>(values.size());
    append(values.data(), values.size() * sizeof(T));
  }
  [[nodiscard]] const std::string& bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }

 private:
  void append(const void* data, std::size_t size);
  std::string bytes_;
};

/// Reads what BinaryWriter wrote, refusing reads past the end with a DataError naming `source`.
class BinaryReader {
 public:
  BinaryReader(std::string_view bytes, std::string source) : bytes_(bytes), source_(std::move(source)) {}
  template <typename T>
  T get() {
    static_assert(std::is_arithmetic_v<T>);
    T value;
    std::memcpy(&value, take(sizeof value), sizeof value);
    return value;
  }
  std::string get_string();
  template <typename T>
  std::vector<T> get_vector() {
    static_assert(std::is_arithmetic_v<T>);
    const auto count = get<std::uint64_t>();
    if (count > remaining() / sizeof(T)) truncated();
    std::vector<T> values(count);
    // memcpy with an empty vector's null data() is undefined even for zero bytes.
    if (count > 0) std::memcpy(values.data(), take(count * sizeof(T)), count * sizeof(T));
    return values;
  }
  [[nodiscard]] std::size_t remaining() const { return bytes_.size() - position_; }

 private:
  const char* take(std::size_t size);
  [[noreturn]] void truncated() const;
  std::string_view bytes_;
  std::size_t position_ = 0;
  std::string source_;
};

/// What a loaded artefact holds besides its kind and version. `payload` views into `bytes`.
struct Artefact {
  nlohmann::json metadata;
  std::string bytes;
  std::string_view payload;
};

/// Writes an artefact atomically (temporary file, then rename).
void write_artefact(const std::filesystem::path& path, std::string_view kind,
                    std::uint32_t format_version, const nlohmann::json& metadata,
                    std::string_view payload);

/// Reads an artefact, checking magic, kind, version and checksum.
Artefact read_artefact(const std::filesystem::path& path, std::string_view expected_kind,
                       std::uint32_t expected_version);

}  // namespace claimrag::io
