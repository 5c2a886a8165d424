#pragma once
// The outputs of one command, declared with its inputs before any work, and committed together.
//
// A subcommand builds one OutputPlan from its flags before it does anything else:
//
//   io::OutputPlan plan({.inputs = {pairs, model}, .files = {out, save_model}, .folders = {}});
//   ...the library call, which writes through io::AtomicFile / io::AtomicFileSet as always...
//   plan.commit();
//
// The constructor first finishes or clears what a killed run left beside each output (an
// interrupted set's journal, dead temporaries), then refuses, before any work: an output that is the same file as an input or as
// another output (UsageError: compared by device and inode, links followed), and an output that
// could not be written (io/output_target.hpp: a folder, a read-only file, an unwritable folder).
// While the plan lives, every AtomicFile or AtomicFileSet whose target is a declared file output
// leaves its finished temporary with the plan instead of renaming it; commit() renames them all
// as one journaled file set under the folders' locks, so that the command's outputs are replaced
// all together or not at all, even when the run is killed. A plan destroyed without commit()
// (an error) removes those temporaries: every output stays as it was.
//
// Character devices and FIFOs are written through at once (they cannot be rolled back). Folder
// outputs are checked but not deferred: the files in them are committed by their own writers.

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

namespace claimrag::io {

/// What a command reads and writes. Empty paths (options not given) are skipped.
struct OutputDeclaration {
  /// Files or folders read. The files a folder holds for a model (io/model_folder.hpp: config,
  /// weights, tokenizer and sentence-transformers files) are inputs too.
  std::vector<std::filesystem::path> inputs = {};
  std::vector<std::filesystem::path> files = {};    ///< files written
  std::vector<std::filesystem::path> folders = {};  ///< folders written into
};

class OutputPlan {
 public:
  /// Checks the declaration (see above) and becomes the process's active plan.
  explicit OutputPlan(const OutputDeclaration& declaration);
  /// Removes the temporaries of outputs not committed; stops being the active plan.
  ~OutputPlan();
  OutputPlan(const OutputPlan&) = delete;
  OutputPlan& operator=(const OutputPlan&) = delete;

  /// Moves every deferred output into place as one file set.
  void commit();

  /// The plan of the running command, or nullptr.
  static OutputPlan* active();

  /// Whether `target` is one of the declared file outputs.
  bool declares(const std::filesystem::path& target) const;

  /// Takes over `temporary` (complete) to be renamed to `target` on commit(). An output written
  /// twice keeps its last version. Used by AtomicFile and AtomicFileSet.
  void defer(const std::filesystem::path& temporary, const std::filesystem::path& target);

  /// The finished temporary held for `target`, or an empty path when nothing was written to it
  /// yet: what a manifest describing the outputs reads before they are committed.
  std::filesystem::path staged(const std::filesystem::path& target) const;

 private:
  struct Deferred {
    std::filesystem::path temporary;
    std::filesystem::path target;
  };
  std::vector<std::string> declared_;  ///< the declared file outputs, resolved, as compared by declares()
  std::vector<Deferred> deferred_;
  mutable std::mutex mutex_;  ///< writers may finish their files from several threads
  bool committed_ = false;
};

}  // namespace claimrag::io
