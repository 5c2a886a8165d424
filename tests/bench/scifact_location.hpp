#pragma once
// Where the SciFact benchmarks find the BEIR folder: $CLAIMRAG_SCIFACT_BEIR, else the
// repository's data/scifact/beir (scripts/get-data.sh puts it there). Empty when neither exists.

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

}  // namespace claimrag::bench
