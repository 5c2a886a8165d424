#include "claimrag/io/atomic_file_set.hpp"

#include <unistd.h>

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <nlohmann/json.hpp>
#include <system_error>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/output_plan.hpp"
#include "claimrag/io/output_target.hpp"
#include "claimrag/io/process_alive.hpp"
#include "claimrag/io/temporary_names.hpp"

namespace claimrag::io {
namespace {

namespace fs = std::filesystem;

fs::path journal_path_for(const fs::path& target, unsigned long set_number) {
  return target.parent_path() / ("." + target.filename().string() + ".commit." + std::to_string(::getpid()) + "." +
                                 std::to_string(set_number));
}

// A journal lists every (temporary, target) of its set and every journal of the set.
nlohmann::json journal_of(const std::vector<std::pair<fs::path, fs::path>>& files, const std::vector<fs::path>& journals) {
  nlohmann::json json = {{"files", nlohmann::json::array()}, {"journals", nlohmann::json::array()}};
  // Absolute: the run that replays it may start elsewhere.
  for (const auto& [temporary, target] : files) {
    json["files"].push_back({fs::absolute(temporary).string(), fs::absolute(target).string()});
  }
  for (const auto& journal : journals) json["journals"].push_back(fs::absolute(journal).string());
  return json;
}

void replay(const fs::path& journal_file) {
  nlohmann::json journal;
  try {
    journal = nlohmann::json::parse(read_json_text(journal_file));
    bool complete = true;
    for (const auto& journal_entry : journal.at("journals")) complete = complete && fs::exists(journal_entry.get<std::string>());
    for (const auto& file : journal.at("files")) {
      const fs::path temporary = file.at(0).get<std::string>();
      std::error_code ignored;
      if (!fs::exists(temporary)) continue;  // renamed before the kill
      if (complete) {
        fs::rename(temporary, file.at(1).get<std::string>(), ignored);
      } else {
        fs::remove(temporary, ignored);
      }
    }
    for (const auto& journal_entry : journal.at("journals")) {
      std::error_code ignored;
      fs::remove(journal_entry.get<std::string>(), ignored);
    }
  } catch (const nlohmann::json::exception& error) {
    // Journals are written atomically, so an unreadable one was not written by claimrag: leave it.
    throw DataError(journal_file.string(), std::string("unreadable commit journal: ") + error.what());
  }
}

}  // namespace

AtomicFileSet::AtomicFileSet() {
  static std::atomic<unsigned long> sets{0};
  number_ = sets++;
}

AtomicFileSet::~AtomicFileSet() {
  if (committed_) return;
  for (const auto& entry : entries_) {
    if (entry.write_through) continue;
    std::error_code ignored;
    fs::remove(entry.temporary, ignored);
    fs::remove(entry.journal, ignored);
  }
  for (const auto& folder : created_folders_) {
    std::error_code ignored;
    fs::remove(folder, ignored);  // only an empty folder is removed: another writer's files stay
  }
}

fs::path AtomicFileSet::stage(const fs::path& given) {
  const OutputTarget target = resolve_output(given);
  if (target.write_through) {
    entries_.push_back({target.path, target.path, {}, true});
    return target.path;
  }
  for (fs::path folder = target.path.parent_path(); !folder.empty() && !fs::exists(folder); folder = folder.parent_path()) {
    created_folders_.push_back(folder);
  }
  prepare_to_write(target.path);
  entries_.push_back({temporary_path_for(target.path), target.path, journal_path_for(target.path, number_)});
  return entries_.back().temporary;
}

void AtomicFileSet::adopt(const fs::path& temporary, const fs::path& target) {
  entries_.push_back({temporary, target, journal_path_for(target, number_)});
}

namespace {

// The locks of every folder of a set, taken in one order (device, inode) by every process so that
// two sets sharing folders cannot deadlock.
std::vector<std::unique_ptr<FolderLock>> lock_folders(const std::vector<fs::path>& targets) {
  std::map<std::pair<dev_t, ino_t>, fs::path> folders;
  for (const auto& target : targets) {
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat status {};
    if (::stat(folder.c_str(), &status) == 0) folders.emplace(std::make_pair(status.st_dev, status.st_ino), folder);
  }
  std::vector<std::unique_ptr<FolderLock>> locks;
  for (const auto& [identity, folder] : folders) locks.push_back(std::make_unique<FolderLock>(folder));
  return locks;
}

}  // namespace

void AtomicFileSet::commit() {
  if (OutputPlan* plan = OutputPlan::active()) {
    const bool declared = std::any_of(entries_.begin(), entries_.end(), [&](const Entry& entry) {
      return !entry.write_through && plan->declares(entry.target);
    });
    if (declared) {
      for (const auto& entry : entries_) {
        if (entry.write_through) continue;
        if (!fs::is_regular_file(entry.temporary)) throw InternalError(entry.target.string() + ": staged but never written");
        plan->defer(entry.temporary, entry.target);
      }
      committed_ = true;  // the plan owns the temporaries now
      return;
    }
  }
  std::vector<std::pair<fs::path, fs::path>> files;
  std::vector<fs::path> journals;
  std::vector<fs::path> targets;
  for (const auto& entry : entries_) {
    if (entry.write_through) continue;
    if (!fs::is_regular_file(entry.temporary)) throw InternalError(entry.target.string() + ": staged but never written");
    files.emplace_back(entry.temporary, entry.target);
    journals.push_back(entry.journal);
    targets.push_back(entry.target);
  }
  const auto locks = lock_folders(targets);
  const std::string journal = journal_of(files, journals).dump() + "\n";
  for (const auto& entry : entries_) {
    if (!entry.write_through) write_file_atomically(entry.journal, journal);
  }
  for (const auto& entry : entries_) {
    if (entry.write_through) continue;
    std::error_code error;
    fs::rename(entry.temporary, entry.target, error);
    if (error) throw DataError(entry.target.string(), "cannot move into place: " + error.message());
  }
  committed_ = true;
  for (const auto& entry : entries_) {
    std::error_code ignored;
    if (!entry.write_through) fs::remove(entry.journal, ignored);
  }
}

void recover_file_sets(const fs::path& target) {
  const fs::path folder = target.parent_path().empty() ? "." : target.parent_path();
  std::error_code error;
  std::vector<fs::path> interrupted;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const auto pid = writer_of(entry.path().filename().string(), target.filename().string(), "commit");
    if (pid && !process_alive(*pid)) interrupted.push_back(entry.path());
  }
  for (const auto& journal : interrupted) {
    if (fs::exists(journal)) replay(journal);
  }
}

void recover_folder(const fs::path& folder) {
  std::error_code error;
  std::set<fs::path> targets;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    // `.T.kind.…`, or `..T.tmp.….tmp.…` for a temporary of a temporary: T is the text before the
    // first marker once the leading dots are off. Only names of claimrag's exact patterns are touched.
    const std::size_t start = name.find_first_not_of('.');
    if (start == 0 || start == std::string::npos || start > 2) continue;
    for (const char* kind : {".commit.", ".tmp."}) {
      const std::size_t marker = name.find(kind, start);
      if (marker != std::string::npos && marker > start) targets.insert(folder / name.substr(start, marker - start));
    }
  }
  for (const auto& target : targets) {
    recover_file_sets(target);
    remove_dead_temporaries(target);
  }
}

}  // namespace claimrag::io
