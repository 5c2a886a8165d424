#include "claimrag/experiment/meta.hpp"

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::experiment {

void write_meta(const std::filesystem::path& folder, const ExperimentConfig& config,
                const nlohmann::json& extra, io::AtomicFileSet* set) {
  nlohmann::json meta = {
      {"program", "claimrag"},
      {"version", CLAIMRAG_VERSION},
      {"seed", config.seed},
      {"config", {{"file", config.source}, {"checksum", config.checksum}, {"content", config.as_json}}},
  };
  meta.update(extra);
  const auto path = folder / "meta.json";
  io::write_file_atomically(set != nullptr ? set->stage(path) : path, io::json_text(meta, path.string(), 2) + "\n");
}

}  // namespace claimrag::experiment
