#pragma once
// A float32 table read by rows, a word-embedding table: a forward pass reads only the rows of its
// tokens, a few thousand of a vocabulary's 30,000 to 250,000. Stored as contiguous float32, it is
// read in place from the checkpoint file's mapping instead of being copied: a copy of DeBERTa-v3's
// 128,100 × 768 table is 393 MB of fresh memory to fill at every load. Stored otherwise (F16,
// BF16, a strided view), it holds its converted rows. Either way its values were checked finite
// when it was taken (CheckpointTensors::take_table).

#include <memory>

#include <Eigen/Core>

#include "claimrag/io/mapped_file.hpp"
#include "claimrag/nn/parameter.hpp"

namespace claimrag::pretrained {

class WeightTable {
 public:
  using Row = Eigen::Map<const nn::RowVector<float>>;

  WeightTable() = default;
  /// A table that holds its values.
  explicit WeightTable(nn::Matrix<float> values);
  /// A table of `rows` × `cols` floats at `first`, inside the mapping `file`, which it keeps open.
  WeightTable(std::shared_ptr<const io::MappedFile> file, const float* first, Eigen::Index rows, Eigen::Index cols);

  [[nodiscard]] Eigen::Index rows() const { return rows_; }
  [[nodiscard]] Eigen::Index cols() const { return cols_; }
  /// True when the rows are read from the file's mapping.
  [[nodiscard]] bool in_place() const { return file_ != nullptr; }
  /// Row `index` (0 ≤ index < rows()).
  [[nodiscard]] Row row(Eigen::Index index) const { return Row((in_place() ? first_ : values_.data()) + index * cols_, cols_); }

 private:
  std::shared_ptr<const io::MappedFile> file_;
  nn::Matrix<float> values_;  ///< the rows, when not read in place
  const float* first_ = nullptr;  ///< the first row inside the mapping, when read in place
  Eigen::Index rows_ = 0;
  Eigen::Index cols_ = 0;
};

}  // namespace claimrag::pretrained
