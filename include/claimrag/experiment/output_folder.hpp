#pragma once
// The folder a reproduction is written to, and the one rule that protects the user's files:
// claimrag never deletes a folder it did not write.
//
// A reproduction is written into `<out>.partial` and swapped into `<out>` when finished. Every
// folder claimrag writes carries the marker file `.claimrag-reproduction` ({"state": "partial",
// "pid": N} while written, {"state": "finished"} after); only such folders (or empty ones) are
// ever removed or replaced, only a finished one is replaced, and only with `force`.
//
// The swap keeps the old result until the new one is in place: `<out>` is renamed to `<out>.old`,
// `<out>.partial` to `<out>`, then `<out>.old` is removed. A run killed in between is repaired by
// the next run on the same `<out>` before anything else (see recover_interrupted_swap).

#include <filesystem>

namespace claimrag::experiment {

/// The name of the marker file.
inline constexpr const char* kReproductionMarker = ".claimrag-reproduction";

/// Where a reproduction is written and where it ends up.
struct OutputFolder {
  std::filesystem::path out;      ///< absolute, normal, no trailing slash
  std::filesystem::path partial;  ///< `<out>.partial`, holding the marker in state "partial"
};

/// Normalises `out` (a trailing slash is fine), repairs an interrupted swap, then checks that
/// `out` is missing, empty, or a finished reproduction and `force` is set (otherwise UsageError,
/// which names the folder and says why); clears a `.partial` left by a killed run (only when it
/// carries the marker and its run is gone) and creates a fresh one.
OutputFolder prepare_output_folder(const std::filesystem::path& out, bool force);

/// Marks `folder.partial` finished and swaps it into `folder.out`, keeping an existing
/// reproduction until the new one is in place.
void commit_output_folder(const OutputFolder& folder);

/// Completes or undoes a swap that was killed midway, judged by what is on disk:
/// `<out>.old` beside `<out>` -> remove the old one; `<out>.old` without `<out>` -> the finished
/// `<out>.partial` moves in if there is one, otherwise the old result moves back.
/// Only folders carrying the marker are touched.
void recover_interrupted_swap(const std::filesystem::path& out);

}  // namespace claimrag::experiment
