#pragma once
// --cross-encoder SPEC and --encoder SPEC: a Hugging Face folder on disk, or `tei:URL`, a model
// served by Text Embeddings Inference, reached with the served flags (served_flags.hpp).

#include <filesystem>
#include <string>

#include "claimrag/served/tei.hpp"
#include "served_flags.hpp"

namespace claimrag::cli {

/// Where a pretrained model comes from: at most one of `folder` and `served.endpoint.url` is set
/// (neither when no SPEC was given).
struct ModelSource {
  std::filesystem::path folder;  ///< the folder, when SPEC is not tei:URL
  served::ServedOptions served;  ///< tei:URL: the endpoint, recording (`record`, an output) and replay (an input)
};

/// --batch-size: how many inputs of a pretrained model (`applies_to`: "--encoder", ...) run at
/// once; for a served one, the most inputs a request holds.
inline void add_model_batch_size_option(CLI::App& command, std::size_t& batch_size, const std::string& applies_to) {
  command.add_option("--batch-size", batch_size,
                     applies_to + ": inputs run at once (a served model: per request; TEI refuses more than its "
                                  "--max-client-batch-size, 32 by default)")
      ->capture_default_str()
      ->check(number_in(1, 1e6));
}

/// The source SPEC names, for a command whose recording goes to served::default_recording_path(out)
/// unless --record or --replay says otherwise; --record and --replay are UsageErrors for a folder
/// (resolve_served). An empty SPEC is neither (both empty).
inline ModelSource model_source(const std::string& spec, const ServedFlags& flags, const std::filesystem::path& out) {
  ModelSource source;
  const std::string url = served::tei_url_of(spec);
  source.served = resolve_served(flags, !url.empty(), out);
  source.served.endpoint.url = url;
  if (url.empty()) source.folder = spec;
  return source;
}

}  // namespace claimrag::cli
