#pragma once
// The one way claimrag opens a file it reads: its kind checked before it is opened, its size
// bounded while it is read.
//
// Every input read whole (configurations, prompts, claimrag's model files, caches, runs, tables)
// goes through read_file(), and every input read as a stream (JSON Lines, checksums) through
// InputFile, each with an InputRule saying what the file may be:
// - a regular file (a symbolic link to one is followed) is always accepted, up to the rule's size;
// - a pipe or FIFO (`--config <(…)`) only where the rule takes streams, read to at most the rule's
//   size and refused past it, never read to its end;
// - a device (`/dev/zero`), a socket or a folder is refused by name before anything is read, so
//   nothing can hang on it or exhaust memory.
// The type is checked with stat() before the file is opened: a FIFO that a rule refuses (a cache,
// a model) is refused without waiting for a writer.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace claimrag::io {

/// What one kind of input may be: its size limit and whether a pipe may stand for it.
struct InputRule {
  const char* kind = "an input";  ///< named in the refusal: "the limit of a settings file"
  std::uint64_t max_bytes = 0;    ///< the most bytes read; one more is refused
  bool streams = false;           ///< whether a pipe or FIFO is read (bounded by max_bytes)
};

/// A configuration, a prompt, an expectation or paper file: at most 16 MiB, a pipe accepted.
inline constexpr InputRule kSettingsInput{"a settings file", std::uint64_t{16} << 20, true};
/// A tokenizer's vocabulary (tokenizer.json, vocab.txt, merges.txt): at most 256 MiB, a regular file.
inline constexpr InputRule kVocabularyInput{"a vocabulary file", std::uint64_t{256} << 20, false};
/// A model file claimrag wrote (a verifier, a reranker, a dense model, a cached verifier): at most
/// 4 GiB, a regular file.
inline constexpr InputRule kModelInput{"a model file", std::uint64_t{4} << 30, false};
/// Data read whole (a TREC run, qrels, a claims table, a signal file): at most 1 GiB, a pipe accepted.
inline constexpr InputRule kDataInput{"a data file read whole", std::uint64_t{1} << 30, true};
/// Data read as a stream in chunks (JSON Lines, checksums): no size limit (a line has its own), a
/// pipe accepted.
inline constexpr InputRule kStreamedInput{"a streamed input", UINT64_MAX, true};

/// A file open for reading under a rule. Constructing it refuses (DataError naming the file) a
/// missing file, a folder, a device, a socket, a pipe where the rule takes none, and a regular file
/// over the rule's size; read() refuses a pipe's bytes past the rule's size.
class InputFile {
 public:
  InputFile(const std::filesystem::path& path, const InputRule& rule);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// Reads up to `size` bytes into `buffer`; 0 at the end of the file. DataError when reading fails
  /// or the file passes the rule's size.
  std::size_t read(char* buffer, std::size_t size);
  /// The size of a regular file; 0 for a pipe.
  [[nodiscard]] std::uint64_t regular_size() const { return regular_size_; }

 private:
  std::string shown_;
  InputRule rule_;
  int descriptor_ = -1;
  std::uint64_t regular_size_ = 0;
  std::uint64_t read_so_far_ = 0;
};

/// The whole file at `path`, read under `rule` (see InputFile). DataError naming the file when it
/// is missing, unreadable, of a kind the rule refuses, or larger than the rule allows.
std::string read_file(const std::filesystem::path& path, const InputRule& rule = kDataInput);

}  // namespace claimrag::io
