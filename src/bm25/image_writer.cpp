#include "image_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/temporary_names.hpp"

namespace claimrag::bm25::detail {

static_assert(std::endian::native == std::endian::little, "the index is written as little-endian arrays");

namespace {

/// Whole checksum blocks per buffer, so that every block is hashed from one buffer.
constexpr std::uint64_t kBlocksPerBuffer = 16;

std::uint64_t align8(std::uint64_t offset) { return (offset + 7) / 8 * 8; }

}  // namespace

void MemoryImageSink::write_at(std::uint64_t offset, std::span<const std::byte> bytes) {
  expect_bytes(offset + bytes.size());
  if (!bytes.empty()) std::memcpy(reinterpret_cast<std::byte*>(words_.data()) + offset, bytes.data(), bytes.size());
}

void MemoryImageSink::expect_bytes(std::uint64_t bytes) {
  if (const std::uint64_t words = (bytes + 7) / 8; words > words_.size()) words_.resize(words, 0);
}

FileImageSink::FileImageSink(std::filesystem::path target)
    : target_(std::move(target)), temporary_(io::temporary_path_for(target_)) {
  io::prepare_to_write(target_);
  // 0666 less the umask, as every other file claimrag writes.
  descriptor_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (descriptor_ < 0) throw DataError(target_.string(), "cannot open for writing: " + io::system_reason(errno));
}

FileImageSink::~FileImageSink() {
  if (descriptor_ >= 0) ::close(descriptor_);
  if (!temporary_.empty()) {
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void FileImageSink::write_at(std::uint64_t offset, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::pwrite(descriptor_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw DataError(target_.string(), "cannot write: " + io::system_reason(written < 0 ? errno : EIO));
    bytes = bytes.subspan(static_cast<std::size_t>(written));
    offset += static_cast<std::uint64_t>(written);
  }
}

void FileImageSink::commit() {
  const int closed = ::close(descriptor_);
  descriptor_ = -1;
  if (closed != 0) throw DataError(target_.string(), "cannot write: " + io::system_reason(errno));
  std::error_code error;
  std::filesystem::rename(temporary_, target_, error);
  if (error) throw DataError(target_.string(), "cannot move into place: " + error.message());
  temporary_.clear();
}

SectionStream::SectionStream(ImageWriter& writer, format::Section section) : writer_(&writer), section_(section) {
  buffer_.reserve(std::min(writer.header_.sections[section].bytes, kBlocksPerBuffer * writer.header_.block_bytes));
}

void SectionStream::append(std::span<const std::byte> bytes) {
  const std::uint64_t capacity = kBlocksPerBuffer * writer_->header_.block_bytes;
  while (!bytes.empty()) {
    const std::size_t take = std::min<std::size_t>(bytes.size(), capacity - buffer_.size());
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(take));
    bytes = bytes.subspan(take);
    written_ += take;
    if (buffer_.size() == capacity) flush();
  }
}

void SectionStream::flush() {
  const format::SectionEntry& entry = writer_->header_.sections[section_];
  if (written_ > entry.bytes) throw InternalError("bm25 index writer: section " + std::to_string(section_) + " overflows");
  const std::uint64_t block_bytes = writer_->header_.block_bytes;
  const std::span<const std::byte> bytes(buffer_);
  for (std::uint64_t begin = 0; begin < bytes.size(); begin += block_bytes) {
    const std::uint64_t block = entry.first_block + (flushed_ + begin) / block_bytes;
    writer_->block_checksums_[block] = io::xxh64(bytes.subspan(begin, std::min<std::uint64_t>(block_bytes, bytes.size() - begin)));
  }
  writer_->sink_.write_at(entry.offset + flushed_, bytes);
  flushed_ += bytes.size();
  buffer_.clear();
}

void SectionStream::close() {
  flush();
  if (written_ != writer_->header_.sections[section_].bytes) {
    throw InternalError("bm25 index writer: section " + std::to_string(section_) + " got " + std::to_string(written_) +
                        " bytes of " + std::to_string(writer_->header_.sections[section_].bytes));
  }
}

SectionStream ImageWriter::open(format::Section section, std::uint64_t bytes) {
  if (section != opened_ || section >= format::kBlockChecksums) {
    throw InternalError("bm25 index writer: sections must be opened in order");
  }
  const std::uint64_t offset = align8(end_);
  static constexpr std::byte kZeros[8]{};
  sink_.write_at(end_, std::span(kZeros, offset - end_));
  header_.sections[section] = {offset, bytes, blocks_};
  blocks_ += format::block_count(bytes, header_.block_bytes);
  block_checksums_.resize(blocks_, 0);
  end_ = offset + bytes;
  sink_.expect_bytes(end_);
  ++opened_;
  return SectionStream(*this, section);
}

std::uint64_t ImageWriter::finish(std::uint64_t documents, std::uint64_t terms, std::uint64_t postings,
                                  std::uint64_t bound_pairs) {
  if (opened_ != format::kBlockChecksums) throw InternalError("bm25 index writer: finished before every section");
  const std::uint64_t offset = align8(end_);
  static constexpr std::byte kZeros[8]{};
  sink_.write_at(end_, std::span(kZeros, offset - end_));
  const std::span<const std::byte> sums(reinterpret_cast<const std::byte*>(block_checksums_.data()), blocks_ * 8);
  header_.sections[format::kBlockChecksums] = {offset, sums.size(), 0};
  sink_.write_at(offset, sums);
  header_.documents = documents;
  header_.terms = terms;
  header_.postings = postings;
  header_.bound_pairs = bound_pairs;
  header_.block_checksums_checksum = io::xxh64(sums);
  std::array<std::byte, format::kHeaderBytes> head{};
  std::memcpy(head.data(), format::kMagic.data(), format::kMagic.size());
  const auto kind_length = static_cast<std::uint32_t>(format::kKind.size());
  std::memcpy(head.data() + 8, &kind_length, 4);
  std::memcpy(head.data() + format::kKindAt, format::kKind.data(), format::kKind.size());
  std::memcpy(head.data() + format::kVersionAt, &format::kVersion, 4);
  header_.header_checksum = 0;
  std::memcpy(head.data() + format::kPrefixBytes, &header_, sizeof header_);
  header_.header_checksum = io::xxh64(std::span<const std::byte>(head).first(format::kHeaderBytes - 8));
  std::memcpy(head.data() + format::kPrefixBytes, &header_, sizeof header_);
  sink_.write_at(0, head);
  return offset + sums.size();
}

}  // namespace claimrag::bm25::detail
