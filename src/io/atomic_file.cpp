#include "claimrag/io/atomic_file.hpp"

#include <unistd.h>

#include <system_error>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/io/output_plan.hpp"
#include "claimrag/io/output_target.hpp"
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

AtomicFile::AtomicFile(std::filesystem::path target, bool /*binary*/) {
  const OutputTarget resolved = resolve_output(target);
  target_ = resolved.path;
  // Errors name the file the user asked for, even when this one is a file set's staged temporary.
  const std::string shown = shown_target(target).string();
  if (resolved.write_through) {  // a device or FIFO: written in place, never replaced (no temporary_)
    out_ = std::make_unique<FileOutput>(target_, shown);
    return;
  }
  temporary_ = temporary_path_for(target_);
  prepare_to_write(target_);
  out_ = std::make_unique<FileOutput>(temporary_, shown);
}

AtomicFile::~AtomicFile() {
  if (!committed_ && !temporary_.empty()) {
    out_.reset();
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void AtomicFile::commit() {
  out_->finish();
  if (temporary_.empty()) {  // written through
    committed_ = true;
    return;
  }
  if (OutputPlan* plan = OutputPlan::active(); plan != nullptr && plan->declares(target_)) {
    plan->defer(temporary_, target_);  // renamed with the command's other outputs
    committed_ = true;
    return;
  }
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

}  // namespace claimrag::io
