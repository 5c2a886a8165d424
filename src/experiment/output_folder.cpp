#include "claimrag/experiment/output_folder.hpp"

#include <unistd.h>

#include <nlohmann/json.hpp>
#include <system_error>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/process_alive.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

enum class State { none, partial, finished };

struct Marker {
  State state = State::none;
  long pid = 0;
};

Marker read_marker(const fs::path& folder) {
  const fs::path file = folder / kReproductionMarker;
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return {};
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(io::read_json_text(file));
  } catch (const nlohmann::json::exception&) {
    throw UsageError(file.string() + ": unreadable marker; remove the folder yourself if it is not needed");
  }
  const nlohmann::json state_field = json.is_object() ? json.value("state", nlohmann::json()) : nlohmann::json();
  const std::string state = state_field.is_string() ? state_field.get<std::string>() : "";
  if (state != "partial" && state != "finished") {
    throw UsageError(file.string() + ": unknown marker state; remove the folder yourself if it is not needed");
  }
  const nlohmann::json pid = json.value("pid", nlohmann::json(0));
  if (!pid.is_number_integer()) {
    throw UsageError(file.string() + ": unreadable marker (its pid is no integer); remove the folder yourself if it is not needed");
  }
  return {state == "finished" ? State::finished : State::partial, pid.get<long>()};
}

// Only a partial folder names its writer: a finished one is the same bytes whoever wrote it.
void write_marker(const fs::path& folder, const std::string& state) {
  nlohmann::json marker = {{"state", state}};
  if (state == "partial") marker["pid"] = static_cast<long>(::getpid());
  io::write_file_atomically(folder / kReproductionMarker, marker.dump() + "\n");
}

bool is_empty_folder(const fs::path& folder) {
  return fs::is_directory(folder) && fs::directory_iterator(folder) == fs::directory_iterator();
}

fs::path sibling(const fs::path& out, const char* suffix) { return fs::path(out.string() + suffix); }

fs::path normalise(const fs::path& out) {
  if (out.empty()) throw UsageError("--out is empty");
  fs::path path = fs::absolute(out).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();  // "runs/x/" names "runs/x"
  if (path == path.root_path()) throw UsageError(out.string() + ": cannot write a reproduction over the root folder");
  return path;
}

void rename_or_throw(const fs::path& from, const fs::path& to) {
  std::error_code error;
  fs::rename(from, to, error);
  if (error) throw DataError(to.string(), "cannot move " + from.string() + " here: " + error.message());
}

// Refuses to put anything where a folder claimrag did not write stands.
void refuse_foreign(const fs::path& folder, const std::string& role) {
  if (!fs::exists(folder) || is_empty_folder(folder)) return;
  if (!fs::is_directory(folder)) throw UsageError(folder.string() + " exists and is not a folder");
  if (read_marker(folder).state == State::none) {
    throw UsageError(folder.string() + " is not empty and was not written by claimrag (" + role +
                     "): claimrag never deletes what it did not write; choose another --out or empty it yourself");
  }
}

}  // namespace

void recover_interrupted_swap(const fs::path& out) {
  const fs::path old = sibling(out, ".old");
  if (!fs::is_directory(old) || read_marker(old).state == State::none) return;
  if (fs::exists(out)) {
    fs::remove_all(old);  // killed after the new result was in place
    return;
  }
  const fs::path partial = sibling(out, ".partial");
  if (fs::is_directory(partial) && read_marker(partial).state == State::finished) {
    rename_or_throw(partial, out);  // the new result was complete: finish the swap
    fs::remove_all(old);
  } else {
    rename_or_throw(old, out);
  }
}

OutputFolder prepare_output_folder(const fs::path& requested, bool force) {
  OutputFolder folder{normalise(requested), {}};
  const fs::path& out = folder.out;
  folder.partial = sibling(out, ".partial");
  refuse_foreign(sibling(out, ".old"), "claimrag would move the previous reproduction there");
  recover_interrupted_swap(out);
  refuse_foreign(out, "the --out folder");
  if (fs::exists(out) && !is_empty_folder(out)) {
    if (read_marker(out).state != State::finished) {
      throw UsageError(out.string() + " holds an unfinished reproduction; remove it yourself if it is not needed");
    }
    if (!force) {
      throw UsageError(out.string() + " already holds a reproduction: pass --force to replace it, or choose another --out");
    }
  }
  refuse_foreign(folder.partial, "claimrag writes the new reproduction there");
  const Marker leftover = read_marker(folder.partial);
  if (leftover.state == State::partial && leftover.pid != ::getpid() && io::process_alive(leftover.pid)) {
    throw UsageError(folder.partial.string() + " is being written by another claimrag run (pid " +
                     std::to_string(leftover.pid) + ")");
  }
  fs::remove_all(folder.partial);
  fs::create_directories(folder.partial);
  write_marker(folder.partial, "partial");
  return folder;
}

void commit_output_folder(const OutputFolder& folder) {
  const fs::path old = sibling(folder.out, ".old");
  write_marker(folder.partial, "finished");
  if (is_empty_folder(folder.out)) fs::remove(folder.out);
  if (fs::exists(folder.out)) {
    // Checked again: the folder may have changed while the stages ran.
    if (read_marker(folder.out).state != State::finished) {
      throw UsageError(folder.out.string() + " changed during the run and is no longer a finished reproduction; "
                       "the new one is kept in " + folder.partial.string());
    }
    rename_or_throw(folder.out, old);
  }
  rename_or_throw(folder.partial, folder.out);
  fs::remove_all(old);
}

}  // namespace claimrag::experiment
