#include "claimrag/io/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <sstream>
#include <system_error>

#include "claimrag/error.hpp"

namespace claimrag::io {
namespace {

// A name unique to this process and call, so that two writers never share a temporary file.
std::filesystem::path temporary_name_for(const std::filesystem::path& target) {
  static std::atomic<unsigned long> counter{0};
  std::ostringstream name;
  name << '.' << target.filename().string() << ".tmp." << ::getpid() << '.' << counter++;
  return target.parent_path() / name.str();
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path target, bool binary)
    : target_(std::move(target)), temporary_(temporary_name_for(target_)) {
  if (target_.has_parent_path()) {
    std::error_code error;
    std::filesystem::create_directories(target_.parent_path(), error);
    if (error) {
      throw DataError(target_.parent_path().string(), "cannot create folder: " + error.message());
    }
  }
  out_.open(temporary_, binary ? std::ios::out | std::ios::binary : std::ios::out);
  if (!out_) throw DataError(temporary_.string(), "cannot open for writing");
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.close();
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void AtomicFile::commit() {
  out_.flush();
  if (!out_) throw DataError(temporary_.string(), "write failed");
  out_.close();
  std::error_code error;
  std::filesystem::rename(temporary_, target_, error);
  if (error) throw DataError(target_.string(), "cannot move into place: " + error.message());
  committed_ = true;
}

void write_file_atomically(const std::filesystem::path& target, std::string_view contents,
                           bool binary) {
  AtomicFile file(target, binary);
  file.stream().write(contents.data(), static_cast<std::streamsize>(contents.size()));
  file.commit();
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::in | std::ios::binary);
  if (!in) {
    std::error_code error;
    if (!std::filesystem::exists(path, error)) throw DataError(path.string(), "no such file");
    throw DataError(path.string(), "cannot open for reading");
  }
  // One allocation of the file's size and one read: large inputs are read often.
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  std::string contents(static_cast<std::size_t>(size), '\0');
  in.read(contents.data(), size);
  if (in.gcount() != size) throw DataError(path.string(), "read failed");
  return contents;
}

}  // namespace claimrag::io
