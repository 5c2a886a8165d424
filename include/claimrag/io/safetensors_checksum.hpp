#pragma once
// The checksum every safetensors file claimrag writes carries, so that a flipped bit in a model
// is an error at load rather than a changed result. It lives in the header's "__metadata__" as
// "claimrag_checksum": 16 hex digits of XXH64 over the whole file as written with those 16
// digits set to '0'. The file stays plain safetensors: Python reads it as it reads any other.
//
// Shared by every model format (dense, reranker, verifiers): a writer builds its header and data
// and calls safetensors_file_bytes; a reader calls verify_safetensors_checksum on the raw bytes
// before it parses anything.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace claimrag::io {

/// The key in "__metadata__"; writers must not use it for anything else.
inline constexpr const char* kSafetensorsChecksumKey = "claimrag_checksum";

/// The complete file: u64 little-endian header length, `header` (given "__metadata__" and its
/// checksum; padded with spaces to a multiple of 8 bytes), then `data`.
std::string safetensors_file_bytes(nlohmann::json header, std::string_view data);

/// Throws DataError naming `file` when `bytes` carry no checksum (a file claimrag did not write,
/// or from before checksums) or when it does not match.
void verify_safetensors_checksum(std::string_view bytes, const std::string& file);

/// Recomputes the checksum of a file in place; false when it has no checksum field. For tests
/// that damage a file on purpose and need its structure, not its checksum, to be judged.
bool reseal_safetensors(std::string& bytes);

}  // namespace claimrag::io
