// A shard's manifest, OUT.shard.json, as `claimrag merge` reads it beside each shard output.
#include "claimrag/shard/shard_manifest.hpp"
#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = claimrag::fuzz::write_scratch("out.jsonl.shard.json", data, size);
  claimrag::fuzz::expect_result_or_refusal([&] { (void)claimrag::shard::read_manifest(file); });
  return 0;
}
