#pragma once
// Where the SciFact benchmarks find the BEIR folder: $CLAIMRAG_SCIFACT_BEIR, else the
// repository's data/scifact/beir (scripts/get-data.sh puts it there). Empty when neither exists.

#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>

namespace claimrag::bench {

inline std::filesystem::path find_scifact_beir() {
  if (const char* configured = std::getenv("CLAIMRAG_SCIFACT_BEIR")) {
    if (std::filesystem::exists(std::filesystem::path(configured) / "corpus.jsonl")) return configured;
  }
  const auto in_repository = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/beir";
  if (std::filesystem::exists(in_repository / "corpus.jsonl")) return in_repository;
  return {};
}

/// SciFact's release layout beside the BEIR folder (its corpus, train and dev claims), or empty.
inline std::filesystem::path find_scifact_original() {
  const auto beir = find_scifact_beir();
  if (beir.empty()) return {};
  const auto original = beir.parent_path() / "original";
  for (const char* file : {"corpus.jsonl", "claims_train.jsonl", "claims_dev.jsonl"}) {
    if (!std::filesystem::exists(original / file)) return {};
  }
  return original;
}

/// For the benchmarks that need both layouts: false, with `state` marked skipped, when either is
/// missing; otherwise quiets the library's progress logging and returns true.
inline bool have_scifact_layouts(benchmark::State& state) {
  if (find_scifact_original().empty()) {
    state.SkipWithError("data/scifact (beir/ and original/) is missing: run scripts/get-data.sh");
    return false;
  }
  spdlog::set_level(spdlog::level::warn);
  return true;
}

}  // namespace claimrag::bench
