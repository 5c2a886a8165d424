#include <algorithm>
#include <cctype>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::experiment {

// Each defined in its own file (builtin_verifier_backend.cpp, ...).
VerifierBackend builtin_verifier_backend();
VerifierBackend checkpoint_verifier_backend();
VerifierBackend llm_verifier_backend();
VerifierBackend tei_verifier_backend();

namespace {

// The backends that ship with claimrag, in the order the parser's message lists them. A static
// library links only the files something calls, so the shipped ones are called from here rather
// than registering themselves.
std::vector<VerifierBackend> shipped_verifier_backends() {
  return {builtin_verifier_backend(), checkpoint_verifier_backend(), llm_verifier_backend(), tei_verifier_backend()};
}

std::vector<VerifierBackend>& backend_registry() {
  static std::vector<VerifierBackend> backends = shipped_verifier_backends();
  return backends;
}

bool is_backend_name(std::string_view kind) {
  return !kind.empty() && std::all_of(kind.begin(), kind.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

std::string form_text(const VerifierBackend& backend) {
  switch (backend.location) {
    case SpecLocation::none: return backend.kind;
    case SpecLocation::folder: return backend.kind + ":DIR";
    case SpecLocation::url: return backend.kind + ":URL";
  }
  return backend.kind;
}

// "builtin, checkpoint:DIR, llm:URL or tei:URL": every registered form, in registration order.
std::string forms_text() {
  const auto& backends = verifier_backends();
  std::string text;
  for (std::size_t i = 0; i < backends.size(); ++i) {
    if (i > 0) text += i + 1 == backends.size() ? " or " : ", ";
    text += form_text(backends[i]);
  }
  return text;
}

[[noreturn]] void refuse_spec(std::string_view text, const std::string& why) {
  throw UsageError("--verifier \"" + std::string(text) + "\": " + why + " (expected " + forms_text() + ")");
}

const VerifierBackend* find_backend(std::string_view kind) {
  const auto& backends = verifier_backends();
  const auto found = std::find_if(backends.begin(), backends.end(), [&](const auto& backend) { return backend.kind == kind; });
  return found == backends.end() ? nullptr : &*found;
}

}  // namespace

bool register_verifier_backend(VerifierBackend backend) {
  if (!is_backend_name(backend.kind)) {
    throw InternalError("verifier backend \"" + backend.kind + "\": a name is letters, digits, '_' and '-'");
  }
  if (find_backend(backend.kind) != nullptr) throw InternalError("verifier backend \"" + backend.kind + "\" is registered twice");
  if (!backend.open) throw InternalError("verifier backend \"" + backend.kind + "\" has no opener");
  backend_registry().push_back(std::move(backend));
  return true;
}

const std::vector<VerifierBackend>& verifier_backends() { return backend_registry(); }

const VerifierBackend& verifier_backend(std::string_view kind) {
  if (const VerifierBackend* backend = find_backend(kind)) return *backend;
  throw UsageError("--verifier: no verifier backend is called \"" + std::string(kind) + "\" (expected " + forms_text() + ")");
}

verification::VerifierSpec parse_verifier_spec(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  const VerifierBackend* backend = find_backend(kind);
  if (backend == nullptr || (colon == std::string_view::npos) != (backend->location == SpecLocation::none)) {
    refuse_spec(text, "unknown verifier");
  }
  if (colon == std::string_view::npos) return {std::string(kind), {}};
  const std::string_view location = text.substr(colon + 1);
  if (location.empty()) refuse_spec(text, "nothing follows \"" + std::string(kind) + ":\"");
  if (backend->location == SpecLocation::url && !location.starts_with("http://") && !location.starts_with("https://")) {
    refuse_spec(text, "the URL must start with http:// or https://");
  }
  return {std::string(kind), std::string(location)};
}

verification::VerifierSpec source_spec(const VerifierSource& source) {
  return parse_verifier_spec(source.spec.empty() ? "builtin" : source.spec);
}

void refuse_builtin_model_files(const VerifierSource& source, const verification::VerifierSpec& spec,
                                std::string_view what_it_reads) {
  if (source.model.empty() && source.save_model.empty()) return;
  throw UsageError("--model and --save-model name a built-in verifier's file; --verifier " + verification::to_string(spec) + " " +
                   std::string(what_it_reads));
}

std::string served_mode_note(const served::ServedOptions& served) {
  if (!served.replay.empty()) return ", replayed from " + served.replay.string();
  if (!served.record.empty()) return ", recorded to " + served.record.string();
  return {};
}

void write_verifier_record(const VerifierSource& source, const nlohmann::ordered_json& record) {
  if (source.record_beside.empty()) return;
  const auto file = verifier_meta_path(source.record_beside);
  const nlohmann::ordered_json meta{{"program", "claimrag"}, {"version", CLAIMRAG_VERSION}, {"verifier", record}};
  io::write_file_atomically(file, io::json_text(meta, file.string(), 2) + "\n");
}

}  // namespace claimrag::experiment
