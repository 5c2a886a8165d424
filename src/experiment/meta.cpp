#include "claimrag/experiment/meta.hpp"

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::experiment {

void write_meta(const std::filesystem::path& folder, const ExperimentConfig& config,
                const nlohmann::json& extra) {
  nlohmann::json meta = {
      {"program", "claimrag"},
      {"version", CLAIMRAG_VERSION},
      {"seed", config.seed},
      {"config", {{"file", config.source}, {"checksum", config.checksum}, {"content", config.as_json}}},
  };
  meta.update(extra);
  io::write_file_atomically(folder / "meta.json", io::json_text(meta, (folder / "meta.json").string(), 2) + "\n");
}

}  // namespace claimrag::experiment
