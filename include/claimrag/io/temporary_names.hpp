#pragma once
// The names of claimrag's temporary files, and the clean-up of those a killed run left behind.
//
// A file being written to `dir/NAME` is first `dir/.NAME.tmp.PID.N` (PID of the writing process,
// N a counter within it); a file set's commit journal is `dir/.NAME.commit.PID.N`. Only names of
// exactly this shape whose PID is not a live process are ever cleaned up.

#include <filesystem>
#include <optional>
#include <string>

namespace claimrag::io {

/// A fresh temporary path beside `target`, unique to this process and call.
std::filesystem::path temporary_path_for(const std::filesystem::path& target);

/// The file a temporary stands for (`dir/.NAME.tmp.PID.N` -> `dir/NAME`, through temporaries of
/// temporaries), or `path` itself: what an error about writing it should name.
std::filesystem::path shown_target(const std::filesystem::path& path);

/// The PID in `name` when it is `.<target_name>.<kind>.PID.N` (kind "tmp" or "commit").
std::optional<long> writer_of(const std::string& name, const std::string& target_name, const std::string& kind);

/// Removes the temporaries of `target` whose writer is no longer running, and the temporaries of
/// those temporaries (and of its file sets' journals) a killed run left; returns how many.
std::size_t remove_dead_temporaries(const std::filesystem::path& target);

}  // namespace claimrag::io
