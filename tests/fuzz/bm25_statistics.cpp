// The statistics of a corpus that the shards of a BM25 index read (`index --shard K/N --statistics FILE`).
#include "claimrag/bm25/collection_statistics.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("statistics.tsv", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::bm25::read_statistics(file); });
  return 0;
}
