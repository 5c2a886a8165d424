#pragma once
// Interrogation probes: question templates read from a configuration file (configs/probes.json).
//
// A probe asks about one proposition: the claim C or its negation ¬C ("claim"), asked as true or
// as false ("asks"). Its set follows from the two: a probe whose faithful answer agrees with the
// original probe p_O ("is C true?") is in the agree set P_AG; one whose faithful answer is the
// opposite ("is C false?", "is ¬C true?") is in the conflict set P_CF. "Is ¬C false?" agrees again.
//
// File format: {"probes": [{"id", "template", "asks": "true"|"false", "claim": "original"|"negated",
// "form": "question"|"completion", "original": bool}, ...]}. "asks", "claim" and "form" default to
// "true", "original" and "question"; exactly one probe is the original p_O (the single-probe
// baseline). Templates hold the `{claim}` slot and may hold `{abstract}`; any other `{name}` is refused.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::interrogation {

enum class ProbeSet : int { agree = 0, conflict = 1 };
/// "agree", "conflict".
std::string_view probe_set_name(ProbeSet set);

/// Whether the response is an answer to a question (yes / no / "I am not sure") or the completion
/// of a sentence ("... the likelihood that C is relatively [high / low]").
enum class ProbeForm : int { question = 0, completion = 1 };

struct Probe {
  std::string id;
  std::string template_text;
  bool asks_false = false;     ///< the question asks whether its claim is false
  bool negated_claim = false;  ///< the slot receives ¬C instead of C
  ProbeForm form = ProbeForm::question;
  bool original = false;       ///< this is p_O
  /// P_CF exactly when one of asks_false and negated_claim holds.
  [[nodiscard]] ProbeSet set() const {
    return asks_false != negated_claim ? ProbeSet::conflict : ProbeSet::agree;
  }
};

/// Checks one probe: a non-empty id, a template with `{claim}` and no slot but `{claim}` and
/// `{abstract}`. Throws UsageError naming the probe and its template.
void validate_probe(const Probe& probe);

/// Reads and validates a probe file; throws UsageError naming the file and the offending probe
/// (unknown key, missing `{claim}`, duplicate id, not exactly one original probe, no probes).
std::vector<Probe> load_probes(const std::filesystem::path& file);

/// The probe's prompt: every `{claim}` replaced by `claim` (already negated for a negated probe)
/// and every `{abstract}` by `abstract`.
std::string render_probe(const Probe& probe, std::string_view claim, std::string_view abstract);

}  // namespace claimrag::interrogation
