// model.safetensors: its length-prefixed JSON header and the offsets it gives, read as a model
// folder's weights are (pretrained::CheckpointTensors).
#include "claimrag/pretrained/checkpoint_tensors.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto folder = claimrag::fuzz::scratch_folder() / "safetensors";
  claimrag::fuzz::write_file(folder, "model.safetensors", claimrag::fuzz::as_text(data, size));
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::pretrained::CheckpointTensors(folder).unused(); });
  return 0;
}
