#pragma once
// The postings of a streaming build, gathered in bounded runs. Documents arrive in corpus order;
// their (term, document, frequency) postings fill a buffer, which is sorted into a run when full:
// grouped by term in the terms' byte order, documents increasing within a group. Byte order is a
// total order, so every run lists its terms in the order of the final sorted vocabulary, and the
// runs can be merged term by term in one sequential pass. Runs that do not fit in memory are
// written to temporary files beside the index.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace claimrag::bm25::detail {

/// One term's postings within a run.
struct RunGroup {
  std::uint32_t term = 0;  ///< provisional (first-sight) term id
  std::span<const std::uint32_t> documents;
  std::span<const std::uint32_t> frequencies;
};

/// A run's postings grouped by term, the groups in the terms' byte order.
struct SortedRun {
  std::vector<std::uint32_t> terms;
  std::vector<std::uint64_t> group_ends;  ///< group g is [group_ends[g-1] (or 0), group_ends[g])
  std::vector<std::uint32_t> documents;
  std::vector<std::uint32_t> frequencies;
};

/// Postings in arrival order until sorted into a run.
class PostingBuffer {
 public:
  /// Bytes the buffer and its sort need per posting (12 buffered, 8 sorted).
  static constexpr std::size_t kBytesPerPosting = 20;

  /// Room for `postings` without regrowing (untouched, so it costs no resident memory).
  void reserve(std::size_t postings) { postings_.reserve(postings); }
  void add(std::uint32_t term, std::uint32_t document, std::uint32_t frequency);
  [[nodiscard]] std::size_t size() const { return postings_.size(); }
  /// Sorts the buffered postings into a run and empties the buffer, keeping its room. `terms` are
  /// the provisional ids' strings (every id added so far has one).
  SortedRun sort(const std::vector<std::string>& terms);
  /// As sort(), given the terms already in byte order (those without postings are skipped): the
  /// builder that never spilled has the whole vocabulary sorted already.
  SortedRun group(std::span<const std::uint32_t> terms_in_order);

 private:
  struct Posting {
    std::uint32_t term, document, frequency;
  };
  std::vector<Posting> postings_;
  std::vector<std::uint32_t> count_;  ///< per provisional term, its postings in the buffer
};

/// Reads a run's groups in order, from memory or from a run file.
class RunCursor {
 public:
  virtual ~RunCursor() = default;
  /// The current group; precondition: !done().
  [[nodiscard]] const RunGroup& group() const { return group_; }
  [[nodiscard]] bool done() const { return done_; }
  virtual void advance() = 0;

 protected:
  RunGroup group_;
  bool done_ = false;
};

/// Cursor over a run held in memory.
std::unique_ptr<RunCursor> memory_cursor(SortedRun run);

/// Writes `run` to `path` (created or truncated): per group the term id, the posting count, the
/// documents, then the frequencies, as u32. DataError naming `shown` when a write fails.
void write_run_file(const SortedRun& run, const std::filesystem::path& path, const std::string& shown);
/// Cursor over a run file written by write_run_file.
std::unique_ptr<RunCursor> file_cursor(const std::filesystem::path& path, const std::string& shown);

}  // namespace claimrag::bm25::detail
