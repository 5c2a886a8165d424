#pragma once
// The tensors of a Hugging Face checkpoint folder, found as the reference library looks for them:
// `model.safetensors`, the shards listed by `model.safetensors.index.json`, `pytorch_model.bin`
// (PyTorch's zip archive, its pickle read without running anything: torch_pickle.hpp), or the
// shards listed by `pytorch_model.bin.index.json`. Files are memory-mapped; a tensor is converted to float32 (from
// F32, F16 or BF16) once, when the model takes it, straight into its final matrix, and its mapped
// pages are then released, so loading peaks at the float32 weights, not twice them; a table read by
// rows (word embeddings) stored as float32 is read in place instead (weight_table.hpp). The model
// takes every tensor it knows by name and shape; what nobody took is reported as unused.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "claimrag/io/mapped_file.hpp"
#include "claimrag/nn/parameter.hpp"
#include "claimrag/pretrained/weight_table.hpp"

namespace claimrag::pretrained {

/// Where one tensor lies: its file, element type, shape and bytes inside the mapping.
struct TensorLocation {
  std::size_t file_index = 0;
  std::string dtype;  ///< safetensors' names; only "F32", "F16" and "BF16" can be taken
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  ///< in elements; row-major in safetensors, any view in PyTorch files
  std::uint64_t begin = 0;  ///< byte offset of the first element inside the mapped file
  std::uint64_t end = 0;    ///< one past the last byte the tensor's storage holds
};

class CheckpointTensors {
 public:
  /// Opens the weights of `folder`. DataError naming the folder when no weight file is there, and
  /// naming the file for a malformed header, a tensor name given twice, an unknown dtype, offsets
  /// that overlap or leave part of the data uncovered, a view outside its storage, a pickle that
  /// asks for anything but tensors, or a tensor listed in two shards.
  explicit CheckpointTensors(const std::filesystem::path& folder);

  /// True when the checkpoint stores a tensor named `stored_name`.
  [[nodiscard]] bool contains(const std::string& stored_name) const;
  /// True when some tensor's name starts with `prefix`.
  [[nodiscard]] bool any_name_starts_with(const std::string& prefix) const;

  /// The two-dimensional tensor `stored_name` [rows, cols] as a float32 matrix. DataError naming
  /// the file for another shape, a dtype other than F32, F16 or BF16, or a NaN or infinite value.
  /// Marks it taken. A missing tensor is recorded, and a zero matrix returned, so that
  /// require_no_missing() can name every missing tensor at once.
  nn::Matrix<float> take(const std::string& stored_name, std::int64_t rows, std::int64_t cols);
  /// The two-dimensional tensor `stored_name` [rows, cols] as a table read by rows, with the same
  /// errors as take(): read in place from the mapping (which the table keeps open) when it is stored
  /// as contiguous, aligned F32, else converted as take() converts it.
  WeightTable take_table(const std::string& stored_name, std::int64_t rows, std::int64_t cols);
  /// The one-dimensional tensor `stored_name` [size] as a 1 × size matrix; the same errors.
  nn::Matrix<float> take_vector(const std::string& stored_name, std::int64_t size);
  /// Marks a tensor that belongs to the model the reference library builds but that the forward
  /// pass does not need (BERT's pooler under an embedding head, a stored buffer) as accounted
  /// for, when present: it is neither used nor reported.
  void ignore(const std::string& stored_name);
  /// DataError naming every tensor take() asked for and the checkpoint lacks.
  void require_no_missing() const;
  /// The tensors neither taken nor ignored, sorted: those the reference library reports as
  /// unused weights of the checkpoint and drops.
  [[nodiscard]] std::vector<std::string> unused() const;

  /// The file holding `stored_name` (the first file when the checkpoint lacks it), for messages.
  [[nodiscard]] const std::string& file_of(const std::string& stored_name) const;
  /// The files read, in order, for messages and records.
  [[nodiscard]] const std::vector<std::string>& files() const { return file_names_; }

 private:
  void open_file(const std::filesystem::path& path, const std::set<std::string>* expected);
  void open_torch_file(const std::filesystem::path& path, const std::set<std::string>* expected);
  void open_shards(const std::filesystem::path& index, void (CheckpointTensors::*open)(const std::filesystem::path&,
                                                                                      const std::set<std::string>*));
  void add_tensor(const std::string& file, const std::string& name, TensorLocation location,
                  const std::set<std::string>* expected);
  nn::Matrix<float> take_shaped(const std::string& stored_name, const std::vector<std::int64_t>& shape);
  /// The location of `stored_name` once its dtype and shape are checked, or nullptr (recorded as
  /// missing) when the checkpoint lacks it.
  const TensorLocation* checked_location(const std::string& stored_name, const std::vector<std::int64_t>& shape);

  std::vector<std::shared_ptr<const io::MappedFile>> mappings_;  ///< shared with the tables read in place
  std::vector<std::string> file_names_;
  std::map<std::string, TensorLocation> tensors_;
  std::set<std::string> taken_;
  std::vector<std::string> missing_;
};

}  // namespace claimrag::pretrained
