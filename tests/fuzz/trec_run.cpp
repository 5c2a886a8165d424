// A TREC run file (`--run`, `fuse --runs`).
#include "claimrag/run/run.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("run.trec", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::run::read_trec_run(file); });
  return 0;
}
