// claimrag's own configuration (`--config`, `reproduce --config`): every stage's parameters, read
// and checked as a subcommand reads them. Built with -DCLAIMRAG_FUZZ_WHOLE_LIBRARY=ON only.
#include "claimrag/experiment/config.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("config.json", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::experiment::load_config(file); });
  return 0;
}
