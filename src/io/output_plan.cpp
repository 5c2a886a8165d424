#include "claimrag/io/output_plan.hpp"

#include <atomic>
#include <system_error>
#include <utility>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/io/model_folder.hpp"
#include "claimrag/io/output_target.hpp"
#include "claimrag/io/temporary_names.hpp"

namespace claimrag::io {
namespace {

namespace fs = std::filesystem;

std::atomic<OutputPlan*> active_plan{nullptr};

// How declares() compares paths: absolute, links followed wherever they exist.
std::string comparable(const fs::path& path) {
  std::error_code error;
  const fs::path resolved = fs::weakly_canonical(fs::absolute(path), error);
  return (error ? fs::absolute(path).lexically_normal() : resolved).string();
}

struct Named {
  fs::path path;
  FileIdentity identity;
  bool input;
};

void refuse_shared_files(const std::vector<Named>& paths) {
  for (std::size_t later = 0; later < paths.size(); ++later) {
    const Named& output = paths[later];
    if (output.input || output.identity.device_node) continue;
    for (std::size_t earlier = 0; earlier < paths.size(); ++earlier) {
      const Named& other = paths[earlier];
      if (earlier == later || other.identity.device_node || !(other.identity == output.identity)) continue;
      if (other.input) {
        throw UsageError(output.path.string() + ": this output is the same file as the input " + other.path.string() +
                         ": refusing to overwrite an input");
      }
      if (earlier < later) {
        throw UsageError(output.path.string() + ": this output is the same file as the output " + other.path.string() +
                         ": one would replace the other");
      }
    }
  }
}

}  // namespace

OutputPlan::OutputPlan(const OutputDeclaration& declaration) {
  std::vector<Named> paths;
  for (const auto& input : declaration.inputs) {
    if (input.empty()) continue;
    paths.push_back({input, identity_of(input), true});
    // A model folder is read file by file: each of its files is an input too.
    for (const auto& file : model_folder_files(input)) paths.push_back({file.path, identity_of(file.path), true});
  }
  for (const auto& file : declaration.files) {
    if (file.empty()) continue;
    const OutputTarget target = resolve_output(file);
    if (!target.write_through && fs::is_directory(target.path.has_parent_path() ? target.path.parent_path() : ".")) {
      // A run killed while committing this output's set is finished first, whatever this run does.
      recover_file_sets(target.path);
      remove_dead_temporaries(target.path);
    }
    paths.push_back({file, identity_of(file), false});
    if (!target.write_through) declared_.push_back(comparable(target.path));
  }
  for (const auto& folder : declaration.folders) {
    if (folder.empty()) continue;
    if (fs::is_directory(folder)) recover_folder(folder);
    check_output_folder(folder);
    paths.push_back({folder, identity_of(folder), false});
  }
  refuse_shared_files(paths);
  OutputPlan* none = nullptr;
  if (!active_plan.compare_exchange_strong(none, this)) throw InternalError("two output plans are active at once");
}

OutputPlan::~OutputPlan() {
  OutputPlan* self = this;
  active_plan.compare_exchange_strong(self, nullptr);
  if (committed_) return;
  for (const auto& deferred : deferred_) {
    std::error_code ignored;
    fs::remove(deferred.temporary, ignored);
  }
}

OutputPlan* OutputPlan::active() { return active_plan.load(); }

bool OutputPlan::declares(const fs::path& target) const {
  const std::string key = comparable(target);
  for (const auto& declared : declared_) {
    if (declared == key) return true;
  }
  return false;
}

void OutputPlan::defer(const fs::path& temporary, const fs::path& target) {
  std::lock_guard lock(mutex_);
  const std::string key = comparable(target);
  for (auto& deferred : deferred_) {
    if (comparable(deferred.target) != key) continue;
    std::error_code ignored;
    fs::remove(deferred.temporary, ignored);  // written again: the last version is the output
    deferred.temporary = temporary;
    return;
  }
  deferred_.push_back({temporary, target});
}

fs::path OutputPlan::staged(const fs::path& target) const {
  std::lock_guard lock(mutex_);
  const std::string key = comparable(target);
  for (const auto& deferred : deferred_) {
    if (comparable(deferred.target) == key) return deferred.temporary;
  }
  return {};
}

void OutputPlan::commit() {
  std::lock_guard lock(mutex_);
  // No longer active: the set below must rename, not hand its files back to this plan.
  OutputPlan* self = this;
  active_plan.compare_exchange_strong(self, nullptr);
  AtomicFileSet set;
  for (const auto& deferred : deferred_) set.adopt(deferred.temporary, deferred.target);
  set.commit();
  committed_ = true;
}

}  // namespace claimrag::io
