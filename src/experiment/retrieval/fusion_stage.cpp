#include "claimrag/experiment/retrieval/fusion_stage.hpp"

#include "claimrag/error.hpp"

namespace claimrag::experiment {

run::Run fuse_run_files(const std::vector<std::filesystem::path>& run_files, const fusion::RrfOptions& options) {
  if (run_files.size() < 2) {
    throw UsageError("fuse needs at least two runs, got " + std::to_string(run_files.size()));
  }
  const std::vector<run::Run> runs = run::read_trec_runs(run_files);
  std::vector<fusion::NamedRun> named;
  for (std::size_t r = 0; r < runs.size(); ++r) named.push_back({&runs[r], run_files[r].string()});
  return fusion::reciprocal_rank_fusion(named, options);
}

}  // namespace claimrag::experiment
