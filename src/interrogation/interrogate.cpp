#include "claimrag/interrogation/interrogate.hpp"

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::interrogation {
namespace {

constexpr std::size_t not_asked = static_cast<std::size_t>(-1);

/// The requests, and per pair and probe the index of its request (not_asked when skipped).
std::vector<ProbeRequest> build_requests(std::span<const InterrogationPair> pairs, std::span<const Probe> probes,
                                         std::vector<std::size_t>& request_of) {
  std::vector<ProbeRequest> requests;
  requests.reserve(pairs.size() * probes.size());
  request_of.assign(pairs.size() * probes.size(), not_asked);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const InterrogationPair& pair = pairs[i];
    for (std::size_t p = 0; p < probes.size(); ++p) {
      const Probe& probe = probes[p];
      if (probe.negated_claim && pair.negated_claim.empty()) continue;
      const std::string& claim = probe.negated_claim ? pair.negated_claim : pair.claim;
      request_of[i * probes.size() + p] = requests.size();
      requests.push_back({&pair, &probe, claim, render_probe(probe, claim, pair.abstract)});
    }
  }
  return requests;
}

nlohmann::ordered_json scores_json(const std::array<double, answer_count>& scores) {
  return nlohmann::ordered_json::array({scores[0], scores[1], scores[2]});
}

nlohmann::ordered_json counts_json(const AnswerCounts& counts) {
  return nlohmann::ordered_json::array({counts.counts[0], counts.counts[1], counts.counts[2]});
}

nlohmann::ordered_json fused_json(const Fused& fused) {
  nlohmann::ordered_json out;
  out["verdict"] = answer_name(fused.verdict);
  out["confidence"] = fused.confidence;
  out["scores"] = scores_json(fused.scores);
  return out;
}

nlohmann::ordered_json pair_json(const InterrogationPair& pair, std::span<const Probe> probes,
                                 const PairInterrogation& result) {
  nlohmann::ordered_json line;
  line["pair_id"] = pair.id;
  line["claim_id"] = pair.claim_id;
  line["claim"] = pair.claim;
  line["negated_claim"] = pair.negated_claim;
  line["negation_rule"] = pair.negation_rule;
  line["doc_id"] = pair.evidence.doc_id;
  auto& responses = line["responses"] = nlohmann::ordered_json::array();
  for (const ResolvedResponse& response : result.responses) {
    const Probe& probe = probes[response.probe];
    nlohmann::ordered_json entry;
    entry["probe_id"] = probe.id;
    entry["set"] = probe_set_name(probe.set());
    entry["sample"] = response.sample;
    entry["text"] = response.text;
    entry["answer"] = answer_name(response.resolution.answer);
    entry["stance"] = answer_name(response.stance);
    entry["resolved"] = response.resolution.resolved;
    entry["rule"] = response.resolution.rule;
    responses.push_back(std::move(entry));
  }
  line["unresolved"] = result.unresolved;
  line["skipped_probes"] = result.skipped_probes;
  line["counts"] = {{"agree", counts_json(result.fusion.tally.agree)},
                    {"conflict", counts_json(result.fusion.tally.conflict)}};
  line["baseline"] = answer_name(result.baseline);
  line["wp"] = fused_json(result.fusion.wp);
  auto wig = fused_json(result.fusion.wig.fused);
  wig["entropy_agree"] = result.fusion.wig.entropy_agree;
  wig["entropy_conflict"] = result.fusion.wig.entropy_conflict;
  wig["gain_agree"] = result.fusion.wig.gain_agree;
  wig["gain_conflict"] = result.fusion.wig.gain_conflict;
  line["wig"] = std::move(wig);
  auto wbu = fused_json(result.fusion.wbu.fused);
  wbu["mass_agree"] = scores_json(result.fusion.wbu.mass_agree);
  wbu["mass_conflict"] = scores_json(result.fusion.wbu.mass_conflict);
  wbu["conflict"] = result.fusion.wbu.conflict;
  wbu["total_conflict"] = result.fusion.wbu.total_conflict;
  line["wbu"] = std::move(wbu);
  line["meta"] = {{"verdict", answer_name(result.fusion.meta.verdict)},
                  {"confidence", result.fusion.meta.confidence},
                  {"normalised", nlohmann::ordered_json::array({result.fusion.meta.normalised[0],
                                                                result.fusion.meta.normalised[1],
                                                                result.fusion.meta.normalised[2]})}};
  return line;
}

}  // namespace

std::vector<PairInterrogation> interrogate(std::span<const InterrogationPair> pairs, std::span<const Probe> probes,
                                           Responder& responder, const InterrogationOptions& options) {
  if (options.samples < 1) throw UsageError("--samples must be at least 1");
  if (!(options.alpha >= 0.0 && options.alpha <= 1.0)) {
    throw UsageError("--alpha must lie in [0, 1], got " + std::to_string(options.alpha));
  }
  if (probes.empty()) throw UsageError("no probes to ask");
  std::size_t original = probes.size();
  for (std::size_t p = 0; p < probes.size(); ++p) {
    validate_probe(probes[p]);
    if (probes[p].original && original == probes.size()) original = p;
  }
  std::vector<std::size_t> request_of;
  const auto requests = build_requests(pairs, probes, request_of);
  const auto answers = responder.respond(requests, options.samples);
  if (answers.size() != requests.size()) {
    throw InternalError("the responder answered " + std::to_string(answers.size()) + " of " +
                        std::to_string(requests.size()) + " requests");
  }
  for (const auto& texts : answers) {
    if (texts.size() != options.samples) {
      throw InternalError("the responder gave " + std::to_string(texts.size()) + " answers where " +
                          std::to_string(options.samples) + " were asked");
    }
  }
  std::vector<PairInterrogation> results(pairs.size());
  const auto pair_count = static_cast<std::ptrdiff_t>(pairs.size());
  // Each pair's result depends on its own answers only, so the split across threads cannot change it.
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t index = 0; index < pair_count; ++index) {
    const auto i = static_cast<std::size_t>(index);
    PairInterrogation& result = results[i];
    std::vector<ProbeAnswer> probe_answers;
    probe_answers.reserve(probes.size() * options.samples);
    result.responses.reserve(probes.size() * options.samples);
    for (std::size_t p = 0; p < probes.size(); ++p) {
      const std::size_t r = request_of[i * probes.size() + p];
      if (r == not_asked) {
        ++result.skipped_probes;
        continue;
      }
      const ProbeRequest& request = requests[r];
      const auto& texts = answers[r];
      for (std::size_t k = 0; k < options.samples; ++k) {
        ResolvedResponse response;
        response.probe = p;
        response.sample = k;
        response.text = texts[k];
        response.failure = responder.failure(request, k);
        response.resolution = resolve_response(probes[p], response.text, request.claim);
        response.stance = stance_on_claim(probes[p], response.resolution.answer);
        if (!response.resolution.resolved) ++result.unresolved;
        if (p == original && k == 0) result.baseline = response.stance;
        probe_answers.push_back({probes[p].set(), response.resolution.answer});
        result.responses.push_back(std::move(response));
      }
    }
    result.fusion = fuse(probe_answers, options.alpha);
  }
  return results;
}

void write_interrogation(const std::filesystem::path& file, std::span<const InterrogationPair> pairs,
                         std::span<const Probe> probes, std::span<const PairInterrogation> results) {
  if (pairs.size() != results.size()) throw InternalError("write_interrogation: pairs and results differ in number");
  io::AtomicFile out(file);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    out.stream() << pair_json(pairs[i], probes, results[i]).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                 << '\n';
  }
  out.commit();
}

std::vector<RecordedAnswer> recorded_answers(std::span<const InterrogationPair> pairs, std::span<const Probe> probes,
                                             std::span<const PairInterrogation> results) {
  std::vector<RecordedAnswer> recorded;
  for (std::size_t i = 0; i < pairs.size() && i < results.size(); ++i) {
    for (const ResolvedResponse& response : results[i].responses) {
      recorded.push_back({pairs[i].id, probes[response.probe].id, response.sample, response.text, response.failure});
    }
  }
  return recorded;
}

}  // namespace claimrag::interrogation
