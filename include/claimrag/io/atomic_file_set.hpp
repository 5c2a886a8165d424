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

#include <filesystem>
#include <string>
#include <vector>

namespace claimrag::io {

class AtomicFileSet {
 public:
  AtomicFileSet();
  /// Removes the temporaries of a set that was not committed.
  ~AtomicFileSet();
  AtomicFileSet(const AtomicFileSet&) = delete;
  AtomicFileSet& operator=(const AtomicFileSet&) = delete;

  /// Registers `target` (parent folders created) and returns the temporary path to write it to.
  /// The writer may itself write atomically; what matters is that the file is complete when
  /// commit() is called.
  std::filesystem::path stage(const std::filesystem::path& target);

  /// Moves every staged file into place (see above). DataError naming the file if one is missing.
  void commit();

 private:
  struct Entry {
    std::filesystem::path temporary;
    std::filesystem::path target;
    std::filesystem::path journal;
  };
  std::vector<Entry> entries_;
  unsigned long number_ = 0;  ///< names this set's journals apart from the process's other sets
  bool committed_ = false;
};

/// Finishes or clears file sets whose commit was interrupted by a killed run and whose journal
/// lies beside `target`. Called before any file is written (AtomicFile, AtomicFileSet::stage).
void recover_file_sets(const std::filesystem::path& target);

}  // namespace claimrag::io
