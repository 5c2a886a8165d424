#include "claimrag/shard/shard_output.hpp"

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/shard/shard_manifest.hpp"

namespace claimrag::shard {

void write_shard_manifest(const io::OutputPlan& plan, const ShardRun& run, const ShardSelection& selection) {
  if (!selection.applied) throw InternalError(run.command + ": --shard was accepted but the command never chose its records");
  const auto written = plan.staged(run.out);
  if (written.empty()) throw InternalError(run.command + ": the shard's output " + run.out.string() + " was not written");
  ShardManifest manifest;
  manifest.version = CLAIMRAG_VERSION;
  manifest.command = run.command;
  manifest.spec = selection.spec;
  manifest.total = selection.total;
  manifest.block = selection.block;
  manifest.inputs = run.inputs.empty() ? nlohmann::ordered_json::array() : input_identities(run.inputs);
  manifest.configuration = run.configuration;
  manifest.verifier = run.verifier;
  manifest.files.push_back(describe_file(written, "output", run.out.filename().string(), kConcatenate));
  // A sidecar's name is the output's stem with its own ending, so merge names the merged one alike.
  const std::string stem = run.out.stem().string();
  for (const auto& sidecar : run.sidecars) {
    const auto staged = sidecar.path.empty() ? std::filesystem::path() : plan.staged(sidecar.path);
    if (staged.empty()) continue;
    const std::string name = sidecar.path.filename().string();
    if (name.compare(0, stem.size(), stem) != 0 || sidecar.path.parent_path() != run.out.parent_path()) {
      throw InternalError(run.command + ": sidecar " + sidecar.path.string() + " is not named after " + run.out.string());
    }
    manifest.files.push_back(describe_file(staged, sidecar.role, name, sidecar.summed.empty() ? kIdentical : kSumCounts,
                                           name.substr(stem.size()), sidecar.summed));
  }
  io::write_file_atomically(manifest_path(run.out), manifest_text(manifest));
}

}  // namespace claimrag::shard
