#include "claimrag/pretrained/weight_table.hpp"

#include <utility>

namespace claimrag::pretrained {

WeightTable::WeightTable(nn::Matrix<float> values)
    : values_(std::move(values)), rows_(values_.rows()), cols_(values_.cols()) {}

WeightTable::WeightTable(std::shared_ptr<const io::MappedFile> file, const float* first, Eigen::Index rows, Eigen::Index cols)
    : file_(std::move(file)), first_(first), rows_(rows), cols_(cols) {}

}  // namespace claimrag::pretrained
