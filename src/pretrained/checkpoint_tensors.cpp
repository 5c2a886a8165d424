#include "claimrag/pretrained/checkpoint_tensors.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <system_error>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/finite_values.hpp"

namespace claimrag::pretrained {
namespace {

static_assert(std::endian::native == std::endian::little, "safetensors data are little-endian");

using nlohmann::json;

constexpr std::uint64_t kHeaderLengthBytes = 8;

std::uint64_t element_bytes(const std::string& dtype) {
  if (dtype == "F32") return 4;
  if (dtype == "F16" || dtype == "BF16") return 2;
  return 0;
}

float half_to_float(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000U) << 16;
  std::uint32_t exponent = (half >> 10) & 0x1FU;
  std::uint32_t mantissa = half & 0x3FFU;
  std::uint32_t bits = 0;
  if (exponent == 0x1FU) {
    bits = sign | 0x7F800000U | (mantissa << 13);  // infinity or NaN
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112U) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {
    // A subnormal half: shift the mantissa up until it is normal, lowering the exponent.
    exponent = 113;
    while ((mantissa & 0x400U) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3FFU) << 13);
  } else {
    bits = sign;
  }
  return std::bit_cast<float>(bits);
}

TensorLocation parse_location(const std::string& file, const std::string& name, const json& entry,
                              std::uint64_t data_start, std::uint64_t data_size) {
  const auto fail = [&](const std::string& reason) { return DataError(file, "tensor '" + name + "': " + reason); };
  if (!entry.is_object() || !entry.contains("dtype") || !entry["dtype"].is_string()) throw fail("no dtype");
  TensorLocation location;
  location.dtype = entry["dtype"].get<std::string>();
  if (element_bytes(location.dtype) == 0) {
    throw fail("unsupported dtype " + location.dtype + " (supported: F32, F16, BF16)");
  }
  const auto& shape = entry.value("shape", json());
  if (!shape.is_array()) throw fail("no shape");
  std::uint64_t count = 1;
  for (const auto& dimension : shape) {
    if (!dimension.is_number_unsigned()) throw fail("shape " + shape.dump() + " is not a list of sizes");
    const auto size = dimension.get<std::uint64_t>();
    if (size != 0 && count > (UINT64_MAX / 8) / size) throw fail("shape " + shape.dump() + " is too large");
    count *= size;
    location.shape.push_back(static_cast<std::int64_t>(size));
  }
  const auto& offsets = entry.value("data_offsets", json());
  if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned()) {
    throw fail("data_offsets must be two non-negative integers, got " + offsets.dump());
  }
  const auto begin = offsets[0].get<std::uint64_t>();
  const auto end = offsets[1].get<std::uint64_t>();
  if (end < begin || end > data_size || end - begin != count * element_bytes(location.dtype)) {
    throw fail("data_offsets " + offsets.dump() + " do not match shape " + shape.dump() + " and dtype " +
               location.dtype + " inside " + std::to_string(data_size) + " data bytes");
  }
  location.begin = data_start + begin;
  location.end = data_start + end;
  return location;
}

// Every tensor is read once. Handing its pages back to the page cache once it is converted keeps
// the mapping out of the process's resident memory, so the peak is the float32 weights, not twice
// them. Only whole pages inside the tensor are released; a later touch would read them again.
void release_pages(const std::byte* begin, const std::byte* end) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page;
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) / page * page;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  return text + "]";
}

}  // namespace

CheckpointTensors::CheckpointTensors(const std::filesystem::path& folder) {
  const auto single = folder / "model.safetensors";
  const auto index = folder / "model.safetensors.index.json";
  if (std::filesystem::exists(single)) {
    open_file(single, nullptr);
    return;
  }
  if (!std::filesystem::exists(index)) {
    throw DataError(folder.string(), "no model.safetensors or model.safetensors.index.json in the checkpoint folder"
                                     " (pytorch_model.bin is not read: convert it to safetensors)");
  }
  const std::string index_file = index.string();
  json object;
  try {
    object = json::parse(io::read_json_text(index));
  } catch (const json::parse_error& error) {
    throw DataError(index_file, std::string("malformed JSON: ") + error.what());
  }
  if (!object.is_object() || !object.contains("weight_map") || !object["weight_map"].is_object()) {
    throw DataError(index_file, "no \"weight_map\" object");
  }
  std::map<std::string, std::set<std::string>> names_by_shard;
  for (const auto& [name, shard] : object["weight_map"].items()) {
    if (!shard.is_string()) throw DataError(index_file, "weight_map entry '" + name + "' is not a file name");
    const auto shard_name = shard.get<std::string>();
    if (shard_name.empty() || shard_name.find('/') != std::string::npos || shard_name == "." || shard_name == "..") {
      throw DataError(index_file, "weight_map entry '" + name + "' names '" + shard_name + "', not a file of the folder");
    }
    names_by_shard[shard_name].insert(name);
  }
  for (const auto& [shard, names] : names_by_shard) {
    const auto path = folder / shard;
    std::error_code error_code;  // a name too long to examine is the index's fault, not a crash
    const bool exists = std::filesystem::exists(path, error_code);
    if (error_code) throw DataError(index_file, "lists shard '" + shard + "', which cannot be examined: " + error_code.message());
    if (!exists) throw DataError(index_file, "lists shard '" + shard + "', which is not in the folder");
    open_file(path, &names);
  }
}

void CheckpointTensors::open_file(const std::filesystem::path& path, const std::set<std::string>* expected) {
  const std::string file = path.string();
  io::MappedFile mapping(path);
  const auto bytes = mapping.bytes();
  if (bytes.size() < kHeaderLengthBytes) throw DataError(file, "too short for a safetensors header");
  std::uint64_t header_length = 0;
  std::memcpy(&header_length, bytes.data(), sizeof header_length);
  if (header_length > bytes.size() - kHeaderLengthBytes) {
    throw DataError(file, "header length " + std::to_string(header_length) + " exceeds the file size");
  }
  json header;
  try {
    const auto* text = reinterpret_cast<const char*>(bytes.data()) + kHeaderLengthBytes;
    header = json::parse(io::depth_checked(std::string_view(text, header_length), file));
  } catch (const json::parse_error& error) {
    throw DataError(file, std::string("malformed safetensors header: ") + error.what());
  }
  if (!header.is_object()) throw DataError(file, "safetensors header is not a JSON object");
  const std::uint64_t data_start = kHeaderLengthBytes + header_length;
  const std::uint64_t data_size = bytes.size() - data_start;
  const std::size_t file_index = mappings_.size();
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    if (expected != nullptr && expected->count(name) == 0) {
      throw DataError(file, "tensor '" + name + "' is not listed for this shard in model.safetensors.index.json");
    }
    auto location = parse_location(file, name, entry, data_start, data_size);
    location.file_index = file_index;
    if (!tensors_.emplace(name, std::move(location)).second) {
      throw DataError(file, "tensor '" + name + "' is stored twice");
    }
  }
  if (expected != nullptr) {
    for (const auto& name : *expected) {
      if (tensors_.count(name) == 0) throw DataError(file, "lacks tensor '" + name + "' that the index places there");
    }
  }
  mappings_.push_back(std::move(mapping));
  file_names_.push_back(file);
}

bool CheckpointTensors::contains(const std::string& stored_name) const { return tensors_.count(stored_name) != 0; }

nn::Matrix<float> CheckpointTensors::take(const std::string& stored_name, std::int64_t rows, std::int64_t cols) {
  return take_shaped(stored_name, {rows, cols});
}

nn::Matrix<float> CheckpointTensors::take_vector(const std::string& stored_name, std::int64_t size) {
  return take_shaped(stored_name, {size});
}

nn::Matrix<float> CheckpointTensors::take_shaped(const std::string& stored_name, const std::vector<std::int64_t>& shape) {
  const std::string where = file_names_.size() == 1 ? file_names_.front() : file_names_.front() + " (and other shards)";
  const auto found = tensors_.find(stored_name);
  if (found == tensors_.end()) throw DataError(where, "no tensor named '" + stored_name + "'");
  const auto& location = found->second;
  const std::string& file = file_names_[location.file_index];
  if (location.shape != shape) {
    throw DataError(file, "tensor '" + stored_name + "' has shape " + shape_text(location.shape) + ", expected " +
                              shape_text(shape));
  }
  const std::int64_t rows = shape.size() == 2 ? shape[0] : 1;
  const std::int64_t cols = shape.back();
  nn::Matrix<float> value(rows, cols);
  const auto* source = mappings_[location.file_index].bytes().data() + location.begin;
  const auto count = static_cast<std::size_t>(value.size());
  float* target = value.data();
  if (location.dtype == "F32") {
    std::memcpy(target, source, count * sizeof(float));
  } else {
    const bool brain = location.dtype == "BF16";
    for (std::size_t i = 0; i < count; ++i) {
      std::uint16_t half = 0;
      std::memcpy(&half, source + 2 * i, sizeof half);
      target[i] = brain ? std::bit_cast<float>(static_cast<std::uint32_t>(half) << 16) : half_to_float(half);
    }
  }
  release_pages(source, source + (location.end - location.begin));
  io::require_finite_weights(target, count, file, stored_name);
  taken_.insert(stored_name);
  return value;
}

void CheckpointTensors::ignore(const std::string& stored_name) {
  if (tensors_.count(stored_name) != 0) taken_.insert(stored_name);
}

void CheckpointTensors::require_all_taken() const {
  for (const auto& [name, location] : tensors_) {
    if (taken_.count(name) == 0) {
      throw DataError(file_names_[location.file_index],
                      "unexpected tensor '" + name + "' " + shape_text(location.shape) +
                          " (not part of the architecture and head this config describes)");
    }
  }
}

}  // namespace claimrag::pretrained
