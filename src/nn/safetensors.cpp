#include "claimrag/nn/safetensors.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/io/safetensors_checksum.hpp"

namespace claimrag::nn {
namespace {

static_assert(std::endian::native == std::endian::little,
              "safetensors data are little-endian and copied as they are");

constexpr const char* kMetadataKey = "__metadata__";
constexpr std::uint64_t kHeaderLengthBytes = 8;

std::uint64_t decode_length(const std::string& bytes) {
  std::uint64_t length = 0;
  for (std::size_t i = 0; i < kHeaderLengthBytes; ++i) {
    length |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return length;
}

struct TensorEntry {
  std::string name;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
};

TensorEntry parse_entry(const std::string& file, const std::string& name, const nlohmann::json& entry) {
  const auto fail = [&](const std::string& reason) { return DataError(file, "tensor '" + name + "': " + reason); };
  if (!entry.is_object()) throw fail("header entry is not an object");
  if (!entry.contains("dtype") || entry["dtype"] != "F32") {
    throw fail("dtype " + (entry.contains("dtype") ? entry["dtype"].dump() : std::string("missing")) +
               ", expected \"F32\"");
  }
  const auto& shape = entry.value("shape", nlohmann::json());
  if (!shape.is_array() || shape.empty() || shape.size() > 2 ||
      !std::all_of(shape.begin(), shape.end(), [](const auto& d) { return d.is_number_unsigned(); })) {
    throw fail("shape must hold one or two non-negative integers, got " + shape.dump());
  }
  const auto& offsets = entry.value("data_offsets", nlohmann::json());
  if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
      !offsets[1].is_number_unsigned()) {
    throw fail("data_offsets must be two non-negative integers, got " + offsets.dump());
  }
  TensorEntry result;
  result.name = name;
  result.rows = shape.size() == 2 ? shape[0].get<std::int64_t>() : 1;
  result.cols = shape.back().get<std::int64_t>();
  result.begin = offsets[0].get<std::uint64_t>();
  result.end = offsets[1].get<std::uint64_t>();
  if (result.rows < 0 || result.cols < 0 || result.end < result.begin ||
      (result.rows != 0 && static_cast<std::uint64_t>(result.cols) > (UINT64_MAX / 4) / static_cast<std::uint64_t>(result.rows)) ||
      result.end - result.begin != static_cast<std::uint64_t>(result.rows * result.cols) * sizeof(float)) {
    throw fail("data_offsets " + offsets.dump() + " do not match shape " + shape.dump());
  }
  return result;
}

SafetensorsMetadata parse_metadata(const std::string& file, const nlohmann::json& metadata) {
  if (!metadata.is_object()) throw DataError(file, "__metadata__ is not an object");
  SafetensorsMetadata result;
  for (const auto& [key, value] : metadata.items()) {
    if (!value.is_string()) throw DataError(file, "__metadata__ value of '" + key + "' is not a string");
    result[key] = value.get<std::string>();
  }
  return result;
}

}  // namespace

void write_safetensors(const std::filesystem::path& path, const std::vector<TensorView>& tensors,
                       const SafetensorsMetadata& metadata) {
  nlohmann::json header = nlohmann::json::object();
  std::uint64_t offset = 0;
  for (const auto& tensor : tensors) {
    if (tensor.name.empty() || tensor.name == kMetadataKey || header.contains(tensor.name)) {
      throw InternalError("write_safetensors: bad or repeated tensor name '" + tensor.name + "'");
    }
    if (tensor.rows < 0 || tensor.cols < 0 || (tensor.data == nullptr && tensor.rows * tensor.cols > 0)) {
      throw InternalError("write_safetensors: bad tensor '" + tensor.name + "'");
    }
    const auto bytes = static_cast<std::uint64_t>(tensor.rows * tensor.cols) * sizeof(float);
    header[tensor.name] = {{"dtype", "F32"},
                           {"shape", {tensor.rows, tensor.cols}},
                           {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  if (metadata.count(io::kSafetensorsChecksumKey) != 0) {
    throw InternalError(std::string("write_safetensors: metadata key '") + io::kSafetensorsChecksumKey + "' is reserved");
  }
  header[kMetadataKey] = metadata;
  std::string data;
  data.reserve(offset);
  for (const auto& tensor : tensors) {
    data.append(reinterpret_cast<const char*>(tensor.data),
                static_cast<std::size_t>(tensor.rows * tensor.cols) * sizeof(float));
  }
  io::write_file_atomically(path, io::safetensors_file_bytes(std::move(header), data), /*binary=*/true);
}

namespace {

/// The JSON header of a file's `bytes`, its length and the file's checksum checked.
nlohmann::json checked_header(const std::string& bytes, const std::string& file, std::uint64_t& header_length) {
  if (bytes.size() < kHeaderLengthBytes) throw DataError(file, "too short for a safetensors header");
  header_length = decode_length(bytes);
  if (header_length > bytes.size() - kHeaderLengthBytes) {
    throw DataError(file, "header length " + std::to_string(header_length) + " exceeds the file size");
  }
  nlohmann::json header =
      parse_safetensors_header(io::depth_checked(std::string_view(bytes).substr(kHeaderLengthBytes, header_length), file), file);
  io::verify_safetensors_checksum(bytes, file);
  return header;
}

}  // namespace

nlohmann::json parse_safetensors_header(std::string_view text, const std::string& file) {
  // The keys seen in each object being parsed, innermost last.
  std::vector<std::set<std::string>> open_objects;
  const auto refuse_repeats = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    if (event == nlohmann::json::parse_event_t::object_start) open_objects.emplace_back();
    if (event == nlohmann::json::parse_event_t::object_end) open_objects.pop_back();
    if (event == nlohmann::json::parse_event_t::key && !open_objects.back().insert(parsed.get<std::string>()).second) {
      throw DataError(file, "safetensors header gives key '" + parsed.get<std::string>() + "' twice");
    }
    return true;
  };
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(text.begin(), text.end(), refuse_repeats);
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(file, std::string("malformed safetensors header: ") + error.what());
  }
  if (!header.is_object()) throw DataError(file, "safetensors header is not a JSON object");
  return header;
}

SafetensorsMetadata read_safetensors_metadata(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::uint64_t header_length = 0;
  const nlohmann::json header = checked_header(io::read_file(path, io::kModelInput), file, header_length);
  if (!header.contains(kMetadataKey)) return {};
  SafetensorsMetadata metadata = parse_metadata(file, header[kMetadataKey]);
  metadata.erase(io::kSafetensorsChecksumKey);
  return metadata;
}

SafetensorsContent read_safetensors(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string bytes = io::read_file(path, io::kModelInput);
  std::uint64_t header_length = 0;
  const nlohmann::json header = checked_header(bytes, file, header_length);

  SafetensorsContent content;
  std::vector<TensorEntry> entries;
  for (const auto& [name, entry] : header.items()) {
    if (name == kMetadataKey) {
      content.metadata = parse_metadata(file, entry);
      content.metadata.erase(io::kSafetensorsChecksumKey);  // the container's, not the caller's
    } else {
      entries.push_back(parse_entry(file, name, entry));
    }
  }
  // The data must be covered exactly, tensor after tensor, with no hole and no overlap.
  std::sort(entries.begin(), entries.end(), [](const TensorEntry& a, const TensorEntry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  const std::uint64_t data_start = kHeaderLengthBytes + header_length;
  const std::uint64_t data_size = bytes.size() - data_start;
  std::uint64_t expected_begin = 0;
  for (const auto& entry : entries) {
    if (entry.begin != expected_begin) {
      throw DataError(file, "tensor '" + entry.name + "' data do not follow the previous tensor's");
    }
    expected_begin = entry.end;
  }
  if (expected_begin != data_size) {
    throw DataError(file, "tensors cover " + std::to_string(expected_begin) + " data bytes, the file holds " +
                              std::to_string(data_size));
  }
  for (const auto& entry : entries) {
    LoadedTensor tensor{entry.name, Matrix<float>(entry.rows, entry.cols)};
    if (entry.end > entry.begin) {
      std::memcpy(tensor.value.data(), bytes.data() + data_start + entry.begin, entry.end - entry.begin);
    }
    io::require_finite_weights(tensor.value.data(), static_cast<std::size_t>(tensor.value.size()), file, entry.name);
    content.tensors.push_back(std::move(tensor));
  }
  return content;
}

void save_registry(const std::filesystem::path& path, const ParameterRegistry<float>& registry,
                   const SafetensorsMetadata& metadata) {
  std::vector<TensorView> views;
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const auto& parameter = registry[i];
    views.push_back({parameter.name, parameter.value.data(), parameter.value.rows(), parameter.value.cols()});
  }
  write_safetensors(path, views, metadata);
}

SafetensorsMetadata load_registry(const std::filesystem::path& path,
                                  ParameterRegistry<float>& registry) {
  SafetensorsContent content = read_safetensors(path);
  SafetensorsMetadata metadata = content.metadata;
  load_registry(std::move(content), path.string(), registry);
  return metadata;
}

void load_registry(SafetensorsContent content, const std::string& file, ParameterRegistry<float>& registry) {
  std::map<std::string, Matrix<float>*> by_name;
  for (auto& tensor : content.tensors) by_name[tensor.name] = &tensor.value;
  std::set<std::string> expected;
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const auto& parameter = registry[i];
    expected.insert(parameter.name);
    const auto found = by_name.find(parameter.name);
    if (found == by_name.end()) throw DataError(file, "no tensor named '" + parameter.name + "'");
    const auto& value = *found->second;
    if (value.rows() != parameter.value.rows() || value.cols() != parameter.value.cols()) {
      throw DataError(file, "tensor '" + parameter.name + "' has shape [" + std::to_string(value.rows()) + ", " +
                                std::to_string(value.cols()) + "], expected [" +
                                std::to_string(parameter.value.rows()) + ", " +
                                std::to_string(parameter.value.cols()) + "]");
    }
  }
  for (const auto& tensor : content.tensors) {
    if (expected.count(tensor.name) == 0) throw DataError(file, "unexpected tensor '" + tensor.name + "'");
  }
  for (std::size_t i = 0; i < registry.size(); ++i) registry[i].value = std::move(*by_name[registry[i].name]);
}

}  // namespace claimrag::nn
