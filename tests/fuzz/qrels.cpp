// A BEIR folder's qrels/<split>.tsv (`--split`).
#include "claimrag/dataset/beir.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("test.tsv", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::dataset::load_qrels(file); });
  return 0;
}
