#pragma once
// The tensors of a Hugging Face checkpoint folder: `model.safetensors`, or the shards listed by
// `model.safetensors.index.json`. Files are memory-mapped; a tensor is converted to float32 (from
// F32, F16 or BF16) once, when the model takes it, straight into its final matrix, and its mapped
// pages are then released, so loading peaks at the float32 weights, not twice them. The model
// takes every tensor it knows by name and shape; what nobody took is reported as unexpected.

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "claimrag/io/mapped_file.hpp"
#include "claimrag/nn/parameter.hpp"

namespace claimrag::pretrained {

/// Where one tensor lies: its file, element type, shape and bytes inside the mapping.
struct TensorLocation {
  std::size_t file_index = 0;
  std::string dtype;  ///< "F32", "F16" or "BF16"
  std::vector<std::int64_t> shape;
  std::uint64_t begin = 0;  ///< byte offset of the data inside the mapped file
  std::uint64_t end = 0;
};

class CheckpointTensors {
 public:
  /// Opens the weights of `folder`. DataError naming the folder when neither file is there, and
  /// naming the file for a malformed header, an unsupported dtype (the message lists F32, F16,
  /// BF16), offsets outside the data, or a tensor listed in two shards.
  explicit CheckpointTensors(const std::filesystem::path& folder);

  /// True when the checkpoint stores a tensor named `stored_name`.
  [[nodiscard]] bool contains(const std::string& stored_name) const;

  /// The two-dimensional tensor `stored_name` [rows, cols] as a float32 matrix. DataError naming
  /// the file for a missing tensor, another shape, or a NaN or infinite value. Marks it taken.
  nn::Matrix<float> take(const std::string& stored_name, std::int64_t rows, std::int64_t cols);
  /// The one-dimensional tensor `stored_name` [size] as a 1 × size matrix; the same errors.
  nn::Matrix<float> take_vector(const std::string& stored_name, std::int64_t size);
  /// Marks a tensor the forward pass does not need (a pooler under an embedding head, a buffer)
  /// as accounted for, when present.
  void ignore(const std::string& stored_name);
  /// DataError naming the file of the first tensor neither taken nor ignored.
  void require_all_taken() const;

  /// The files read, in order, for messages and records.
  [[nodiscard]] const std::vector<std::string>& files() const { return file_names_; }

 private:
  void open_file(const std::filesystem::path& path, const std::set<std::string>* expected);
  nn::Matrix<float> take_shaped(const std::string& stored_name, const std::vector<std::int64_t>& shape);

  std::vector<io::MappedFile> mappings_;
  std::vector<std::string> file_names_;
  std::map<std::string, TensorLocation> tensors_;
  std::set<std::string> taken_;
};

}  // namespace claimrag::pretrained
