// A BEIR folder's corpus.jsonl and queries.jsonl (`--data`), the same bytes read as both.
#include "claimrag/dataset/beir.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("corpus.jsonl", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::dataset::load_corpus(file); });
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::dataset::load_queries(file); });
  return 0;
}
