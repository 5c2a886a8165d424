#include "claimrag/io/atomic_file.hpp"

#include <unistd.h>

#include <fstream>
#include <system_error>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/io/temporary_names.hpp"

namespace claimrag::io {

void create_parent_folder(const std::filesystem::path& target) {
  if (!target.has_parent_path()) return;
  std::error_code error;
  std::filesystem::create_directories(target.parent_path(), error);
  if (error) throw DataError(target.parent_path().string(), "cannot create folder: " + error.message());
}

void prepare_to_write(const std::filesystem::path& target) {
  create_parent_folder(target);
  recover_file_sets(target);
  remove_dead_temporaries(target);
}

AtomicFile::AtomicFile(std::filesystem::path target, bool /*binary*/)
    : target_(std::move(target)), temporary_(temporary_path_for(target_)) {
  prepare_to_write(target_);
  out_ = std::make_unique<FileOutput>(temporary_, target_.string());
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.reset();
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void AtomicFile::commit() {
  out_->finish();
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
