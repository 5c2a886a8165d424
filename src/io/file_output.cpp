#include "claimrag/io/file_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <streambuf>
#include <system_error>
#include <vector>

#include "claimrag/error.hpp"

namespace claimrag::io {
std::string system_reason(int error) {
  std::string text = std::error_code(error, std::generic_category()).message();
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// Keeps the errno of the first failure, since the ostream above it only knows that one failed.
class FileOutput::Buffer : public std::streambuf {
 public:
  explicit Buffer(int descriptor) : descriptor_(descriptor), bytes_(1 << 16) {
    setp(bytes_.data(), bytes_.data() + bytes_.size());
  }
  ~Buffer() override {
    if (descriptor_ >= 0) ::close(descriptor_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  [[nodiscard]] int error() const { return error_; }
  int close() {
    const int descriptor = descriptor_;
    descriptor_ = -1;
    if (::close(descriptor) != 0 && error_ == 0) error_ = errno;
    return error_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* data = pbase();
    std::size_t size = static_cast<std::size_t>(pptr() - pbase());
    while (size > 0 && error_ == 0) {
      const ssize_t written = ::write(descriptor_, data, size);
      if (written < 0) {
        if (errno != EINTR) error_ = errno;
        continue;
      }
      data += written;
      size -= static_cast<std::size_t>(written);
    }
    setp(bytes_.data(), bytes_.data() + bytes_.size());
    return error_ == 0;
  }

  int descriptor_;
  int error_ = 0;
  std::vector<char> bytes_;
};

FileOutput::FileOutput(const std::filesystem::path& path, std::string shown) : shown_(std::move(shown)) {
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (descriptor < 0) throw DataError(shown_, "cannot open for writing: " + system_reason(errno));
  buffer_ = std::make_unique<Buffer>(descriptor);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

FileOutput::~FileOutput() = default;

std::ostream& FileOutput::stream() { return *stream_; }

void FileOutput::finish() {
  stream_->flush();
  if (const int error = buffer_->close(); error != 0) throw DataError(shown_, "cannot write: " + system_reason(error));
}

}  // namespace claimrag::io
