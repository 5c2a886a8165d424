#include "claimrag/pretrained/checkpoint_tensors.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <system_error>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/nn/safetensors.hpp"
#include "claimrag/pretrained/freed_memory_reuse.hpp"
#include "claimrag/pretrained/stored_zip.hpp"
#include "claimrag/pretrained/torch_pickle.hpp"

namespace claimrag::pretrained {
namespace {

static_assert(std::endian::native == std::endian::little, "safetensors data are little-endian");

using nlohmann::json;

constexpr std::uint64_t kHeaderLengthBytes = 8;

// Every dtype safetensors defines, so that a file's layout is checked whatever it holds; only
// F32, F16 and BF16 can be taken as weights.
std::uint64_t element_bytes(const std::string& dtype) {
  if (dtype == "F8_E4M3" || dtype == "F8_E5M2" || dtype == "U8") return 1;
  if (dtype == "U16" || dtype == "U32" || dtype == "U64") return torch_element_bytes("I" + dtype.substr(1));
  return torch_element_bytes(dtype);
}

bool is_float_weight(const std::string& dtype) { return dtype == "F32" || dtype == "F16" || dtype == "BF16"; }

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
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
  if (element_bytes(location.dtype) == 0) throw fail("unknown dtype " + location.dtype);
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
  location.strides = row_major_strides(location.shape);
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

// The greatest element index a view reaches (its storage must hold it), or -1 for an empty view.
std::int64_t last_element(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides,
                          std::int64_t offset) {
  std::int64_t last = offset;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return -1;
    if (strides[i] != 0 && (shape[i] - 1) > (INT64_MAX - last) / strides[i]) return INT64_MAX;
    last += (shape[i] - 1) * strides[i];
  }
  return last;
}

// The members of a PyTorch archive by their path below its one top-level folder (named after
// the file when it was saved): data.pkl, data/0, ... Indexed once, so that finding each tensor's
// storage does not scan every member. A path found in two folders maps to nothing, and is refused
// when asked for.
using ArchiveMembers = std::map<std::string, std::optional<ZipEntry>, std::less<>>;

ArchiveMembers archive_members(const std::map<std::string, ZipEntry>& entries) {
  ArchiveMembers members;
  for (const auto& [name, entry] : entries) {
    const auto slash = name.find('/');
    if (slash == std::string::npos) continue;
    const auto [found, inserted] = members.emplace(name.substr(slash + 1), entry);
    if (!inserted) found->second.reset();
  }
  return members;
}

const ZipEntry& archive_member(const ArchiveMembers& members, const std::string& relative, const std::string& file) {
  const auto found = members.find(relative);
  if (found == members.end()) throw DataError(file, "no member '" + relative + "': not a PyTorch archive");
  if (!found->second) throw DataError(file, "two members named '" + relative + "' in different folders");
  return *found->second;
}

}  // namespace

CheckpointTensors::CheckpointTensors(const std::filesystem::path& folder) {
  keep_freed_memory_for_reuse();
  // The reference library's order: safetensors first, then PyTorch's files.
  if (std::filesystem::exists(folder / "model.safetensors")) {
    open_file(folder / "model.safetensors", nullptr);
  } else if (std::filesystem::exists(folder / "model.safetensors.index.json")) {
    open_shards(folder / "model.safetensors.index.json", &CheckpointTensors::open_file);
  } else if (std::filesystem::exists(folder / "pytorch_model.bin")) {
    open_torch_file(folder / "pytorch_model.bin", nullptr);
  } else if (std::filesystem::exists(folder / "pytorch_model.bin.index.json")) {
    open_shards(folder / "pytorch_model.bin.index.json", &CheckpointTensors::open_torch_file);
  } else {
    throw DataError(folder.string(), "no model.safetensors, model.safetensors.index.json, pytorch_model.bin or "
                                     "pytorch_model.bin.index.json in the checkpoint folder");
  }
}

void CheckpointTensors::open_shards(const std::filesystem::path& index,
                                    void (CheckpointTensors::*open)(const std::filesystem::path&, const std::set<std::string>*)) {
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
  const auto folder = index.parent_path();
  for (const auto& [shard, names] : names_by_shard) {
    const auto path = folder / shard;
    std::error_code error_code;  // a name too long to examine is the index's fault, not a crash
    const bool exists = std::filesystem::exists(path, error_code);
    if (error_code) throw DataError(index_file, "lists shard '" + shard + "', which cannot be examined: " + error_code.message());
    if (!exists) throw DataError(index_file, "lists shard '" + shard + "', which is not in the folder");
    (this->*open)(path, &names);
  }
}

void CheckpointTensors::add_tensor(const std::string& file, const std::string& name, TensorLocation location,
                                   const std::set<std::string>* expected) {
  if (expected != nullptr && expected->count(name) == 0) {
    throw DataError(file, "tensor '" + name + "' is not listed for this shard in the index");
  }
  location.file_index = mappings_.size();
  if (!tensors_.emplace(name, std::move(location)).second) throw DataError(file, "tensor '" + name + "' is stored twice");
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
  const json header = nn::parse_safetensors_header(
      io::depth_checked(std::string_view(reinterpret_cast<const char*>(bytes.data()) + kHeaderLengthBytes, header_length), file),
      file);
  const std::uint64_t data_start = kHeaderLengthBytes + header_length;
  const std::uint64_t data_size = bytes.size() - data_start;
  // As the reference reader requires: the tensors' data, in offset order, follow one another
  // without a gap or an overlap and cover the data exactly.
  std::vector<std::pair<TensorLocation, std::string>> by_offset;
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    by_offset.emplace_back(parse_location(file, name, entry, data_start, data_size), name);
  }
  std::sort(by_offset.begin(), by_offset.end(), [](const auto& a, const auto& b) {
    return a.first.begin != b.first.begin ? a.first.begin < b.first.begin : a.first.end < b.first.end;
  });
  std::uint64_t covered = data_start;
  for (const auto& [location, name] : by_offset) {
    if (location.begin != covered) {
      throw DataError(file, "tensor '" + name + "' " + (location.begin < covered ? "overlaps the data of another tensor" :
                                                        "leaves data bytes before it that no tensor holds"));
    }
    covered = location.end;
  }
  if (covered != bytes.size()) {
    throw DataError(file, "the tensors cover " + std::to_string(covered - data_start) + " of the " +
                              std::to_string(data_size) + " data bytes");
  }
  for (auto& [location, name] : by_offset) add_tensor(file, name, std::move(location), expected);
  if (expected != nullptr) {
    for (const auto& name : *expected) {
      if (tensors_.count(name) == 0) throw DataError(file, "lacks tensor '" + name + "' that the index places there");
    }
  }
  mappings_.push_back(std::make_shared<const io::MappedFile>(std::move(mapping)));
  file_names_.push_back(file);
}

void CheckpointTensors::open_torch_file(const std::filesystem::path& path, const std::set<std::string>* expected) {
  const std::string file = path.string();
  io::MappedFile mapping(path);
  const auto bytes = mapping.bytes();
  const auto entries = stored_zip_entries(bytes, file);
  const auto text = [&](const ZipEntry& entry) {
    return std::string_view(reinterpret_cast<const char*>(bytes.data()) + entry.begin, entry.size);
  };
  const auto byteorder = std::find_if(entries.begin(), entries.end(), [](const auto& entry) {
    return entry.first.size() >= 10 && entry.first.compare(entry.first.size() - 10, 10, "/byteorder") == 0;
  });
  if (byteorder != entries.end() && text(byteorder->second) != "little") {
    throw DataError(file, "stores its tensors big-endian; only little-endian archives are read");
  }
  const ArchiveMembers members = archive_members(entries);
  const TorchStateDict state = read_torch_pickle(text(archive_member(members, "data.pkl", file)), file, bytes.size());
  for (const auto& tensor : state.tensors) {
    const auto& storage = state.storages.at(tensor.storage);
    const auto& member = archive_member(members, "data/" + tensor.storage, file);
    const std::uint64_t size = torch_element_bytes(storage.dtype);
    if (member.size % size != 0 || member.size / size != static_cast<std::uint64_t>(storage.elements)) {
      throw DataError(file, "tensor '" + tensor.name + "': storage '" + tensor.storage + "' holds " +
                                std::to_string(member.size) + " bytes, not " + std::to_string(storage.elements) +
                                " elements of " + storage.dtype);
    }
    if (last_element(tensor.shape, tensor.strides, tensor.storage_offset) >= storage.elements) {
      throw DataError(file, "tensor '" + tensor.name + "' " + shape_text(tensor.shape) + " reaches past the " +
                                std::to_string(storage.elements) + " elements of its storage");
    }
    TensorLocation location;
    location.dtype = storage.dtype;
    location.shape = tensor.shape;
    location.strides = tensor.strides;
    location.begin = member.begin + static_cast<std::uint64_t>(tensor.storage_offset) * size;
    location.end = member.begin + member.size;
    add_tensor(file, tensor.name, std::move(location), expected);
  }
  if (expected != nullptr) {
    for (const auto& name : *expected) {
      if (tensors_.count(name) == 0) throw DataError(file, "lacks tensor '" + name + "' that the index places there");
    }
  }
  mappings_.push_back(std::make_shared<const io::MappedFile>(std::move(mapping)));
  file_names_.push_back(file);
}

bool CheckpointTensors::contains(const std::string& stored_name) const { return tensors_.count(stored_name) != 0; }

bool CheckpointTensors::any_name_starts_with(const std::string& prefix) const {
  const auto first = tensors_.lower_bound(prefix);
  return first != tensors_.end() && first->first.compare(0, prefix.size(), prefix) == 0;
}

const std::string& CheckpointTensors::file_of(const std::string& stored_name) const {
  const auto found = tensors_.find(stored_name);
  return file_names_[found == tensors_.end() ? 0 : found->second.file_index];
}

nn::Matrix<float> CheckpointTensors::take(const std::string& stored_name, std::int64_t rows, std::int64_t cols) {
  return take_shaped(stored_name, {rows, cols});
}

nn::Matrix<float> CheckpointTensors::take_vector(const std::string& stored_name, std::int64_t size) {
  return take_shaped(stored_name, {size});
}

const TensorLocation* CheckpointTensors::checked_location(const std::string& stored_name, const std::vector<std::int64_t>& shape) {
  const auto found = tensors_.find(stored_name);
  if (found == tensors_.end()) {
    missing_.push_back(stored_name);
    return nullptr;
  }
  const auto& location = found->second;
  const std::string& file = file_names_[location.file_index];
  if (!is_float_weight(location.dtype)) {
    throw DataError(file, "tensor '" + stored_name + "': unsupported dtype " + location.dtype + " (supported: F32, F16, BF16)");
  }
  if (location.shape != shape) {
    throw DataError(file, "tensor '" + stored_name + "' has shape " + shape_text(location.shape) + ", expected " +
                              shape_text(shape));
  }
  return &location;
}

WeightTable CheckpointTensors::take_table(const std::string& stored_name, std::int64_t rows, std::int64_t cols) {
  const TensorLocation* location = checked_location(stored_name, {rows, cols});
  if (location == nullptr) return WeightTable(nn::Matrix<float>::Zero(rows, cols));
  const auto& mapping = mappings_[location->file_index];
  const auto* source = mapping->bytes().data() + location->begin;
  const bool in_place = location->dtype == "F32" && location->strides == row_major_strides(location->shape) &&
                        reinterpret_cast<std::uintptr_t>(source) % alignof(float) == 0;
  if (!in_place) return WeightTable(take_shaped(stored_name, {rows, cols}));
  const auto* first = reinterpret_cast<const float*>(source);
  io::require_finite_weights(first, static_cast<std::size_t>(rows * cols), file_names_[location->file_index], stored_name);
  taken_.insert(stored_name);
  return WeightTable(mapping, first, rows, cols);
}

nn::Matrix<float> CheckpointTensors::take_shaped(const std::string& stored_name, const std::vector<std::int64_t>& shape) {
  const std::int64_t rows = shape.size() == 2 ? shape[0] : 1;
  const std::int64_t cols = shape.back();
  const TensorLocation* checked = checked_location(stored_name, shape);
  if (checked == nullptr) return nn::Matrix<float>::Zero(rows, cols);
  const auto& location = *checked;
  const std::string& file = file_names_[location.file_index];
  nn::Matrix<float> value(rows, cols);
  const auto* storage = mappings_[location.file_index]->bytes().data();
  const auto* source = storage + location.begin;
  const auto count = static_cast<std::size_t>(value.size());
  float* target = value.data();
  const std::uint64_t size = element_bytes(location.dtype);
  const bool contiguous = location.strides == row_major_strides(location.shape);
  const std::int64_t row_stride = shape.size() == 2 ? location.strides[0] : 0;
  const std::int64_t col_stride = location.strides.back();
  // The element at (row, col) of the view, as bytes inside the mapping.
  const auto element = [&](std::size_t i) {
    if (contiguous) return source + i * size;
    const auto row = static_cast<std::int64_t>(i) / cols;
    const auto col = static_cast<std::int64_t>(i) % cols;
    return source + static_cast<std::uint64_t>(row * row_stride + col * col_stride) * size;
  };
  if (location.dtype == "F32" && contiguous) {
    std::memcpy(target, source, count * sizeof(float));
  } else if (location.dtype == "F32") {
    for (std::size_t i = 0; i < count; ++i) std::memcpy(target + i, element(i), sizeof(float));
  } else {
    const bool brain = location.dtype == "BF16";
    for (std::size_t i = 0; i < count; ++i) {
      std::uint16_t half = 0;
      std::memcpy(&half, element(i), sizeof half);
      target[i] = brain ? std::bit_cast<float>(static_cast<std::uint32_t>(half) << 16) : half_to_float(half);
    }
  }
  release_pages(source, storage + location.end);
  io::require_finite_weights(target, count, file, stored_name);
  taken_.insert(stored_name);
  return value;
}

void CheckpointTensors::ignore(const std::string& stored_name) {
  if (tensors_.count(stored_name) != 0) taken_.insert(stored_name);
}

void CheckpointTensors::require_no_missing() const {
  if (missing_.empty()) return;
  std::string names;
  for (const auto& name : missing_) names += (names.empty() ? "'" : ", '") + name + "'";
  const std::string where = file_names_.size() == 1 ? file_names_.front() : file_names_.front() + " (and other shards)";
  throw DataError(where, "no tensor named " + names + " (" + std::to_string(missing_.size()) +
                             " tensor(s) the architecture and head this config describes need)");
}

std::vector<std::string> CheckpointTensors::unused() const {
  std::vector<std::string> names;
  for (const auto& [name, location] : tensors_) {
    if (taken_.count(name) == 0) names.push_back(name);
  }
  return names;
}

}  // namespace claimrag::pretrained
