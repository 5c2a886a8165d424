#pragma once
// safetensors files (https://huggingface.co/docs/safetensors): an 8-byte little-endian header
// length, a JSON header {name: {"dtype", "shape", "data_offsets"}, "__metadata__": {str: str}},
// then the raw little-endian tensor bytes. Only F32 two-dimensional tensors are written or read,
// which is all claimrag's models hold, and a user can open them with safetensors.numpy.load_file.

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::nn {

/// The free-form string map stored under "__metadata__".
using SafetensorsMetadata = std::map<std::string, std::string>;

/// A borrowed row-major rows × cols float tensor to be written.
struct TensorView {
  std::string name;
  const float* data = nullptr;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
};

/// A tensor read from a file: its name, shape and row-major values.
struct LoadedTensor {
  std::string name;
  Matrix<float> value;
};

/// The whole content of a safetensors file, tensors in file order of their data.
struct SafetensorsContent {
  SafetensorsMetadata metadata;
  std::vector<LoadedTensor> tensors;
};

/// Writes `tensors` (unique, non-empty names other than "__metadata__") and `metadata` (which
/// must not use the key io::kSafetensorsChecksumKey) to `path` atomically, with the file's
/// checksum in "__metadata__". Data are laid out in the given order; the header is padded with
/// spaces to a multiple of 8 bytes, as the reference implementation does.
void write_safetensors(const std::filesystem::path& path, const std::vector<TensorView>& tensors,
                       const SafetensorsMetadata& metadata);

/// Reads and validates a whole file: its checksum (io/safetensors_checksum.hpp), header length
/// within the file, well-formed JSON, no NaN or infinite value, dtype
/// "F32", shapes of one or two non-negative dimensions (one dimension reads as a 1 × n matrix),
/// data_offsets matching the shape, inside the data and covering it without overlap.
/// Throws DataError naming the file on any violation.
SafetensorsContent read_safetensors(const std::filesystem::path& path);

/// The "__metadata__" of a safetensors file (its checksum checked), without reading its tensors:
/// what a loader looks at first, to name a file of another kind as such before its tensors (of
/// another dtype, say) are judged.
SafetensorsMetadata read_safetensors_metadata(const std::filesystem::path& path);

/// Parses the JSON header `text` of the safetensors file `file`, which must be an object. A key
/// repeated in any object is refused, naming the key: JSON parsers silently keep one of the two,
/// so two readers of the same file could see different tensors. DataError naming the file.
nlohmann::json parse_safetensors_header(std::string_view text, const std::string& file);

/// Writes every parameter of `registry` (value only, registration order) with `metadata`.
void save_registry(const std::filesystem::path& path, const ParameterRegistry<float>& registry,
                   const SafetensorsMetadata& metadata);

/// Loads the tensors of `path` into the parameters of `registry`, which fixes what is expected:
/// the file must hold exactly the registry's names, each with the registered shape; otherwise
/// DataError naming the file and the first mismatch, and `registry` is left untouched.
/// Gradients are not touched. Returns the file's metadata for the caller's own checks.
SafetensorsMetadata load_registry(const std::filesystem::path& path,
                                  ParameterRegistry<float>& registry);

/// The same from a file already read (by read_safetensors of `file`), for callers that check
/// the metadata before building the registry.
void load_registry(SafetensorsContent content, const std::string& file, ParameterRegistry<float>& registry);

}  // namespace claimrag::nn
