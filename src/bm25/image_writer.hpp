#pragma once
// Writing an index image (bm25/index_format.hpp) section by section, each section streamed in
// order while the XXH64 of every block of `block_bytes` is computed on the way: the one place that
// lays the format out, for images built in memory and for files written by the streaming build.
// Sections are opened in file order with their sizes known up front, so several may be open at
// once (a term's documents and frequencies are written side by side), and the header goes last.

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "claimrag/bm25/index_format.hpp"

namespace claimrag::bm25::detail {

/// Where an image's bytes go, by absolute offset.
class ImageSink {
 public:
  virtual ~ImageSink() = default;
  virtual void write_at(std::uint64_t offset, std::span<const std::byte> bytes) = 0;
  /// The image will be at least `bytes` long (a section was opened that ends there).
  virtual void expect_bytes(std::uint64_t /*bytes*/) {}
};

/// An image in memory, as 8-byte words (what InvertedIndex::from_built_image takes).
class MemoryImageSink final : public ImageSink {
 public:
  void write_at(std::uint64_t offset, std::span<const std::byte> bytes) override;
  /// Grows the image to `bytes` at once, so that later writes below it do not reallocate.
  void expect_bytes(std::uint64_t bytes) override;
  std::vector<std::uint64_t> take() { return std::move(words_); }

 private:
  std::vector<std::uint64_t> words_;
};

/// A temporary file beside `target`, renamed onto it by commit(); removed, and the target left
/// untouched, when destroyed uncommitted. Write failures are DataErrors naming the target.
class FileImageSink final : public ImageSink {
 public:
  explicit FileImageSink(std::filesystem::path target);
  ~FileImageSink() override;
  FileImageSink(const FileImageSink&) = delete;
  FileImageSink& operator=(const FileImageSink&) = delete;
  void write_at(std::uint64_t offset, std::span<const std::byte> bytes) override;
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  int descriptor_ = -1;
};

class ImageWriter;

/// One section being written front to back through a buffer of whole checksum blocks, each block
/// hashed as the buffer is handed to the sink. close() checks that exactly the declared size was
/// written.
class SectionStream {
 public:
  void append(std::span<const std::byte> bytes);
  template <typename T>
  void append_values(std::span<const T> values) {
    append({reinterpret_cast<const std::byte*>(values.data()), values.size_bytes()});
  }
  void close();

 private:
  friend class ImageWriter;
  SectionStream(ImageWriter& writer, format::Section section);
  void flush();

  ImageWriter* writer_;
  format::Section section_;
  std::uint64_t written_ = 0;   ///< bytes of the section appended so far
  std::uint64_t flushed_ = 0;   ///< of which handed to the sink
  std::vector<std::byte> buffer_;
};

class ImageWriter {
 public:
  explicit ImageWriter(ImageSink& sink) : sink_(sink) {}
  /// Opens the next section (every earlier one must have been opened) of `bytes` bytes; the zero
  /// padding before it is written here.
  SectionStream open(format::Section section, std::uint64_t bytes);
  /// Writes a whole section at once.
  template <typename T>
  void write(format::Section section, std::span<const T> values) {
    SectionStream stream = open(section, values.size_bytes());
    stream.append_values(values);
    stream.close();
  }
  /// After every section but the block checksums was closed: writes those, then the prefix and
  /// the header with its counts and checksums. Returns the image's size in bytes.
  std::uint64_t finish(std::uint64_t documents, std::uint64_t terms, std::uint64_t postings, std::uint64_t bound_pairs);

 private:
  friend class SectionStream;
  ImageSink& sink_;
  format::IndexHeader header_;
  std::size_t opened_ = 0;
  std::uint64_t end_ = format::kHeaderBytes;  ///< where the last opened section ends
  std::uint64_t blocks_ = 0;
  std::vector<std::uint64_t> block_checksums_;
};

}  // namespace claimrag::bm25::detail
