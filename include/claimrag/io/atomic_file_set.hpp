#pragma once
// Several files that are only meaningful together (a model and the run it produced, a table and
// its JSON): all of them are replaced, or none.
//
// Each file is written to a temporary beside its target (stage() gives its path, for any writer
// that takes a path). commit() then writes a journal beside every target, listing the whole set,
// renames every temporary into place, and removes the journals. A failure before commit (a full
// disk, an exception) leaves every target as it was. A run killed during commit is finished by
// the next claimrag run that writes any file of the set (recover_file_sets): if every journal of
// the set exists, the renames are completed; otherwise commit had not started renaming (or had
// finished), and the leftovers are removed.
//
// commit() holds the lock of every folder of the set (io::FolderLock), so that two runs writing
// the same set never interleave their renames. Targets follow the rules of io/output_target.hpp:
// a character device or FIFO is written through (stage() returns the target itself), a link to a
// file replaces the file it names. While an io::OutputPlan is active and declares a target of the
// set, commit() hands the whole set to the plan, which commits it with the command's other outputs.

#include <filesystem>
#include <string>
#include <vector>

namespace claimrag::io {

class AtomicFileSet {
 public:
  AtomicFileSet();
  /// Removes the temporaries of a set that was not committed, and the folders stage() created
  /// for it that are still empty: a failed run leaves no trace.
  ~AtomicFileSet();
  AtomicFileSet(const AtomicFileSet&) = delete;
  AtomicFileSet& operator=(const AtomicFileSet&) = delete;

  /// Registers `target` (parent folders created) and returns the temporary path to write it to.
  /// The writer may itself write atomically; what matters is that the file is complete when
  /// commit() is called.
  std::filesystem::path stage(const std::filesystem::path& target);

  /// Registers a temporary already written for `target` (by an AtomicFile an OutputPlan deferred).
  void adopt(const std::filesystem::path& temporary, const std::filesystem::path& target);

  /// Moves every staged file into place (see above). DataError naming the file if one is missing.
  void commit();

 private:
  struct Entry {
    std::filesystem::path temporary;
    std::filesystem::path target;
    std::filesystem::path journal;
    bool write_through = false;  ///< a device or FIFO: written in place, nothing to rename
  };
  std::vector<Entry> entries_;
  std::vector<std::filesystem::path> created_folders_;  ///< by stage(), deepest first
  unsigned long number_ = 0;  ///< names this set's journals apart from the process's other sets
  bool committed_ = false;
};

/// Finishes or clears file sets whose commit was interrupted by a killed run and whose journal
/// lies beside `target`. Called before any file is written (AtomicFile, AtomicFileSet::stage).
void recover_file_sets(const std::filesystem::path& target);

/// recover_file_sets and remove_dead_temporaries for every target in `folder` that a dead writer
/// left a journal or temporary for: what a folder output's next run does before any work.
void recover_folder(const std::filesystem::path& folder);

}  // namespace claimrag::io
