#include "claimrag/io/artefact.hpp"

#include <xxhash.h>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"

namespace claimrag::io {
namespace {
constexpr std::string_view kMagic = "CLAIMRAG";
}

void BinaryWriter::append(const void* data, std::size_t size) {
  bytes_.append(static_cast<const char*>(data), size);
}

void BinaryWriter::put_string(std::string_view text) {
  put<std::uint32_t>(static_cast<std::uint32_t>(text.size()));
  bytes_.append(text);
}

const char* BinaryReader::take(std::size_t size) {
  if (size > remaining()) truncated();
  const char* data = bytes_.data() + position_;
  position_ += size;
  return data;
}

void BinaryReader::truncated() const {
  throw DataError(source_, "truncated: the file ends before its contents do");
}

std::string BinaryReader::get_string() {
  const auto size = get<std::uint32_t>();
  return std::string(take(size), size);
}

void write_artefact(const std::filesystem::path& path, std::string_view kind,
                    std::uint32_t format_version, const nlohmann::json& metadata,
                    std::string_view payload) {
  BinaryWriter header;
  for (const char c : kMagic) header.put(c);
  header.put_string(kind);
  header.put(format_version);
  const std::string metadata_text = metadata.dump();
  header.put<std::uint64_t>(metadata_text.size());
  BinaryWriter payload_header;
  payload_header.put<std::uint64_t>(payload.size());
  // The payload is streamed to the file and hashed in pieces rather than copied into one buffer.
  const std::string_view pieces[] = {header.bytes(), metadata_text, payload_header.bytes(), payload};
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  AtomicFile file(path, /*binary=*/true);
  for (const std::string_view piece : pieces) {
    XXH64_update(state, piece.data(), piece.size());
    file.stream().write(piece.data(), static_cast<std::streamsize>(piece.size()));
  }
  BinaryWriter trailer;
  trailer.put<std::uint64_t>(XXH64_digest(state));
  XXH64_freeState(state);
  file.stream().write(trailer.bytes().data(), static_cast<std::streamsize>(trailer.bytes().size()));
  file.commit();
}

Artefact read_artefact(const std::filesystem::path& path, std::string_view expected_kind,
                       std::uint32_t expected_version) {
  const std::string source = path.string();
  Artefact artefact;
  artefact.bytes = read_file(path);
  const std::string& bytes = artefact.bytes;
  if (bytes.size() < kMagic.size() + sizeof(std::uint64_t) ||
      std::string_view(bytes).substr(0, kMagic.size()) != kMagic) {
    throw DataError(source, "not a claimrag artefact (no CLAIMRAG header)");
  }
  const std::string_view body(bytes.data(), bytes.size() - sizeof(std::uint64_t));
  std::uint64_t stored_checksum;
  std::memcpy(&stored_checksum, bytes.data() + body.size(), sizeof stored_checksum);
  if (stored_checksum != xxh64(body)) {
    throw DataError(source, "checksum mismatch: the file is corrupt or was cut short");
  }
  BinaryReader reader(body.substr(kMagic.size()), source);
  const std::string kind = reader.get_string();
  if (kind != expected_kind) {
    throw DataError(source, "holds a " + kind + ", expected a " + std::string(expected_kind));
  }
  const auto version = reader.get<std::uint32_t>();
  if (version != expected_version) {
    throw DataError(source, "format version " + std::to_string(version) + ", this claimrag reads " +
                                std::to_string(expected_version) + ": rebuild it");
  }
  const auto metadata_size = reader.get<std::uint64_t>();
  if (metadata_size > reader.remaining()) throw DataError(source, "truncated metadata");
  const std::size_t metadata_start = body.size() - reader.remaining();
  try {
    artefact.metadata = nlohmann::json::parse(body.substr(metadata_start, metadata_size));
  } catch (const nlohmann::json::exception& error) {
    throw DataError(source, std::string("unreadable metadata: ") + error.what());
  }
  BinaryReader rest(body.substr(metadata_start + metadata_size), source);
  const auto payload_size = rest.get<std::uint64_t>();
  if (payload_size != rest.remaining()) throw DataError(source, "payload size does not match the file");
  artefact.payload = body.substr(body.size() - payload_size);
  return artefact;
}

}  // namespace claimrag::io
