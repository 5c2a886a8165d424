#include "claimrag/pretrained/stored_zip.hpp"

#include <algorithm>
#include <cstring>

#include "claimrag/error.hpp"

namespace claimrag::pretrained {
namespace {

constexpr std::uint32_t kEndOfDirectory = 0x06054b50;
constexpr std::uint32_t kZip64EndOfDirectory = 0x06064b50;
constexpr std::uint32_t kZip64Locator = 0x07064b50;
constexpr std::uint32_t kDirectoryEntry = 0x02014b50;
constexpr std::uint32_t kLocalHeader = 0x04034b50;
constexpr std::uint16_t kZip64ExtraField = 0x0001;
constexpr std::size_t kEndOfDirectoryBytes = 22;
constexpr std::size_t kDirectoryEntryBytes = 46;
constexpr std::size_t kLocalHeaderBytes = 30;
constexpr std::uint32_t kSaturated32 = 0xFFFFFFFFU;

// Little-endian reads with bounds checked against the whole archive.
class Reader {
 public:
  Reader(std::span<const std::byte> bytes, const std::string& file) : bytes_(bytes), file_(file) {}

  template <typename T>
  T at(std::uint64_t offset) const {
    if (offset > bytes_.size() || bytes_.size() - offset < sizeof(T)) fail("a record runs past the end of the file");
    T value{};
    std::memcpy(&value, bytes_.data() + offset, sizeof value);
    return value;
  }
  std::string text(std::uint64_t offset, std::uint64_t length) const {
    if (offset > bytes_.size() || bytes_.size() - offset < length) fail("a member name runs past the end of the file");
    return {reinterpret_cast<const char*>(bytes_.data() + offset), static_cast<std::size_t>(length)};
  }
  [[noreturn]] void fail(const std::string& reason) const { throw DataError(file_, "not a readable PyTorch zip archive: " + reason); }
  [[nodiscard]] std::uint64_t size() const { return bytes_.size(); }

 private:
  std::span<const std::byte> bytes_;
  const std::string& file_;
};

std::uint64_t find_end_of_directory(const Reader& reader) {
  if (reader.size() < kEndOfDirectoryBytes) reader.fail("too short");
  // The record sits at the end, followed by a comment of at most 65535 bytes.
  const std::uint64_t lowest = reader.size() > kEndOfDirectoryBytes + 0xFFFF ? reader.size() - kEndOfDirectoryBytes - 0xFFFF : 0;
  for (std::uint64_t offset = reader.size() - kEndOfDirectoryBytes + 1; offset-- > lowest;) {
    if (reader.at<std::uint32_t>(offset) == kEndOfDirectory) return offset;
  }
  reader.fail("no end-of-central-directory record (a legacy, pre-zip torch.save file is not read either)");
}

struct Directory {
  std::uint64_t offset = 0;
  std::uint64_t entries = 0;
};

Directory read_directory_location(const Reader& reader) {
  const std::uint64_t end = find_end_of_directory(reader);
  if (reader.at<std::uint16_t>(end + 4) != 0 || reader.at<std::uint16_t>(end + 6) != 0) reader.fail("split across several disks");
  Directory directory{reader.at<std::uint32_t>(end + 16), reader.at<std::uint16_t>(end + 10)};
  const bool zip64 = directory.offset == kSaturated32 || directory.entries == 0xFFFF;
  if (zip64) {
    if (end < 20 || reader.at<std::uint32_t>(end - 20) != kZip64Locator) reader.fail("zip64 sizes without a zip64 locator");
    const auto record = reader.at<std::uint64_t>(end - 20 + 8);
    if (reader.at<std::uint32_t>(record) != kZip64EndOfDirectory) reader.fail("the zip64 locator points at no zip64 record");
    directory.entries = reader.at<std::uint64_t>(record + 32);
    directory.offset = reader.at<std::uint64_t>(record + 48);
  }
  return directory;
}

// The zip64 extra field holds, in this order, only the values saturated in the fixed fields.
void read_zip64_values(const Reader& reader, std::uint64_t extra, std::uint64_t extra_length, std::uint64_t& size,
                       std::uint64_t& compressed, std::uint64_t& local_offset) {
  for (std::uint64_t at = extra; at + 4 <= extra + extra_length;) {
    const auto id = reader.at<std::uint16_t>(at);
    const auto length = reader.at<std::uint16_t>(at + 2);
    if (id == kZip64ExtraField) {
      std::uint64_t value = at + 4;
      for (std::uint64_t* field : {&size, &compressed, &local_offset}) {
        if (*field != kSaturated32) continue;
        if (value + 8 > at + 4 + length) reader.fail("a zip64 extra field is too short");
        *field = reader.at<std::uint64_t>(value);
        value += 8;
      }
      return;
    }
    at += 4 + length;
  }
  if (size == kSaturated32 || compressed == kSaturated32 || local_offset == kSaturated32) reader.fail("a zip64 member without its zip64 field");
}

}  // namespace

std::map<std::string, ZipEntry> stored_zip_entries(std::span<const std::byte> bytes, const std::string& file) {
  const Reader reader(bytes, file);
  const Directory directory = read_directory_location(reader);
  std::map<std::string, ZipEntry> entries;
  std::uint64_t at = directory.offset;
  for (std::uint64_t i = 0; i < directory.entries; ++i) {
    if (reader.at<std::uint32_t>(at) != kDirectoryEntry) reader.fail("a central directory entry has a bad signature");
    const auto flags = reader.at<std::uint16_t>(at + 8);
    const auto method = reader.at<std::uint16_t>(at + 10);
    std::uint64_t compressed = reader.at<std::uint32_t>(at + 20);
    std::uint64_t size = reader.at<std::uint32_t>(at + 24);
    const std::uint64_t name_length = reader.at<std::uint16_t>(at + 28);
    const std::uint64_t extra_length = reader.at<std::uint16_t>(at + 30);
    const std::uint64_t comment_length = reader.at<std::uint16_t>(at + 32);
    std::uint64_t local = reader.at<std::uint32_t>(at + 42);
    const std::string name = reader.text(at + kDirectoryEntryBytes, name_length);
    read_zip64_values(reader, at + kDirectoryEntryBytes + name_length, extra_length, size, compressed, local);
    if ((flags & 0x1U) != 0) throw DataError(file, "member '" + name + "' is encrypted");
    if (method != 0) {
      throw DataError(file, "member '" + name + "' is compressed (method " + std::to_string(method) +
                                "); PyTorch stores its members uncompressed, and only such archives are read");
    }
    if (compressed != size) reader.fail("member '" + name + "' is stored with two different sizes");
    if (reader.at<std::uint32_t>(local) != kLocalHeader) reader.fail("member '" + name + "' has no local header");
    const std::uint64_t data = local + kLocalHeaderBytes + reader.at<std::uint16_t>(local + 26) + reader.at<std::uint16_t>(local + 28);
    if (data > bytes.size() || bytes.size() - data < size) reader.fail("member '" + name + "' runs past the end of the file");
    if (!entries.emplace(name, ZipEntry{data, size}).second) throw DataError(file, "member '" + name + "' is stored twice");
    at += kDirectoryEntryBytes + name_length + extra_length + comment_length;
  }
  return entries;
}

}  // namespace claimrag::pretrained
