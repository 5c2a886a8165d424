#include "claimrag/interrogation/probe.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/strict_json.hpp"

namespace claimrag::interrogation {
namespace {

constexpr std::string_view claim_slot = "{claim}";
constexpr std::string_view abstract_slot = "{abstract}";

std::string describe(const Probe& probe) {
  return "probe '" + probe.id + "' (template \"" + probe.template_text + "\")";
}

Probe read_probe(const nlohmann::json& entry, const std::string& source, std::size_t index) {
  io::StrictObject object(entry, source, "probes[" + std::to_string(index) + "]");
  Probe probe;
  std::string asks = "true";
  std::string claim = "original";
  std::string form = "question";
  object.read("id", probe.id);
  object.read("template", probe.template_text);
  object.read("asks", asks);
  object.read("claim", claim);
  object.read("form", form);
  object.read("original", probe.original);
  object.finish();
  const std::string where = source + ": " + describe(probe);
  if (asks != "true" && asks != "false") throw UsageError(where + ": \"asks\" must be \"true\" or \"false\"");
  if (claim != "original" && claim != "negated") {
    throw UsageError(where + ": \"claim\" must be \"original\" or \"negated\"");
  }
  if (form != "question" && form != "completion") {
    throw UsageError(where + ": \"form\" must be \"question\" or \"completion\"");
  }
  probe.asks_false = asks == "false";
  probe.negated_claim = claim == "negated";
  probe.form = form == "completion" ? ProbeForm::completion : ProbeForm::question;
  return probe;
}

}  // namespace

std::string_view probe_set_name(ProbeSet set) { return set == ProbeSet::agree ? "agree" : "conflict"; }

void validate_probe(const Probe& probe) {
  if (probe.id.empty()) throw UsageError("probe with template \"" + probe.template_text + "\" has no id");
  if (probe.template_text.find(claim_slot) == std::string::npos) {
    throw UsageError(describe(probe) + " has no {claim} slot");
  }
  // A misspelt slot ("{Claim}", "{abstact}") would otherwise reach the model verbatim.
  for (std::size_t open = probe.template_text.find('{'); open != std::string::npos;
       open = probe.template_text.find('{', open + 1)) {
    const std::string_view rest = std::string_view(probe.template_text).substr(open);
    if (!rest.starts_with(claim_slot) && !rest.starts_with(abstract_slot)) {
      throw UsageError(describe(probe) + " has an unknown slot at \"" +
                       std::string(rest.substr(0, rest.find('}') == std::string_view::npos ? rest.size() : rest.find('}') + 1)) +
                       "\" (only {claim} and {abstract} exist)");
    }
  }
}

std::vector<Probe> load_probes(const std::filesystem::path& file) {
  const std::string source = file.string();
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(io::read_json_text(file));
  } catch (const nlohmann::json::parse_error& error) {
    throw UsageError(source + ": not valid JSON: " + error.what());
  }
  if (!document.is_object() || !document.contains("probes") || !document["probes"].is_array()) {
    throw UsageError(source + ": expected an object {\"probes\": [...]}");
  }
  for (const auto& [key, value] : document.items()) {
    if (key != "probes") throw UsageError(source + ": unknown key \"" + key + "\"");
  }
  std::vector<Probe> probes;
  std::set<std::string> ids;
  std::size_t originals = 0;
  for (const auto& entry : document["probes"]) {
    Probe probe = read_probe(entry, source, probes.size());
    try {
      validate_probe(probe);
    } catch (const UsageError& error) {
      throw UsageError(source + ": " + error.what());
    }
    if (!ids.insert(probe.id).second) throw UsageError(source + ": duplicate probe id '" + probe.id + "'");
    if (probe.original) {
      ++originals;
      if (probe.set() != ProbeSet::agree) {
        throw UsageError(source + ": the original " + describe(probe) + " must ask whether the claim is true");
      }
    }
    probes.push_back(std::move(probe));
  }
  if (probes.empty()) throw UsageError(source + ": no probes");
  if (originals != 1) {
    throw UsageError(source + ": exactly one probe must be marked \"original\" (found " +
                     std::to_string(originals) + ")");
  }
  return probes;
}

std::string render_probe(const Probe& probe, std::string_view claim, std::string_view abstract) {
  std::string prompt;
  prompt.reserve(probe.template_text.size() + claim.size() + abstract.size());
  const std::string_view text = probe.template_text;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find('{', at);
    if (open == std::string_view::npos) {
      prompt.append(text.substr(at));
      break;
    }
    prompt.append(text.substr(at, open - at));
    const std::string_view rest = text.substr(open);
    if (rest.starts_with(claim_slot)) {
      prompt.append(claim);
      at = open + claim_slot.size();
    } else if (rest.starts_with(abstract_slot)) {
      prompt.append(abstract);
      at = open + abstract_slot.size();
    } else {
      prompt.push_back('{');
      at = open + 1;
    }
  }
  return prompt;
}

}  // namespace claimrag::interrogation
