#pragma once
// meta.json: what every output folder records about how it was made.

#include <filesystem>
#include <nlohmann/json.hpp>

#include "claimrag/experiment/config.hpp"

namespace claimrag::experiment {

/// Writes `<folder>/meta.json`: program version, seed, configuration (file, checksum, content),
/// and `extra` (data checksums, stage facts). Written atomically.
void write_meta(const std::filesystem::path& folder, const ExperimentConfig& config,
                const nlohmann::json& extra);

}  // namespace claimrag::experiment
