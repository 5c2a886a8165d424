#pragma once
// meta.json: what every output folder records about how it was made.

#include <filesystem>
#include <nlohmann/json.hpp>

#include "claimrag/experiment/config.hpp"
#include "claimrag/io/atomic_file_set.hpp"

namespace claimrag::experiment {

/// Writes `<folder>/meta.json`: program version, seed, configuration (file, checksum, content),
/// and `extra` (data checksums, stage facts). Written atomically; staged in `set` when given, so
/// that it is replaced together with the files it describes.
void write_meta(const std::filesystem::path& folder, const ExperimentConfig& config,
                const nlohmann::json& extra, io::AtomicFileSet* set = nullptr);

}  // namespace claimrag::experiment
