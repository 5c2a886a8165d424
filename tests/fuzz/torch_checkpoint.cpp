// pytorch_model.bin: PyTorch's stored zip archive and the state dict's pickle, read as a model
// folder's weights are (pretrained::CheckpointTensors).
#include "claimrag/pretrained/checkpoint_tensors.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto folder = claimrag::fuzz::write_scratch("pytorch_model.bin", data, size).parent_path();
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::pretrained::CheckpointTensors(folder).unused(); });
  return 0;
}
