#include "claimrag/interrogation/command.hpp"

#include <spdlog/spdlog.h>

#include <optional>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/error.hpp"
#include "claimrag/interrogation/builtin_responder.hpp"
#include "claimrag/interrogation/claim_verdict.hpp"
#include "claimrag/interrogation/recorded_responder.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::interrogation {
namespace {

constexpr std::string_view recorded_prefix = "recorded:";

std::filesystem::path default_recording(const std::filesystem::path& out) {
  std::filesystem::path record = out;
  record.replace_extension(".responses.jsonl");
  return record;
}

/// The built-in responder together with the verifier it asks, which it must not outlive.
class LoadedBuiltinResponder final : public Responder {
 public:
  LoadedBuiltinResponder(std::unique_ptr<verification::ClaimVerifier> verifier, BuiltinResponderOptions options)
      : verifier_(std::move(verifier)), responder_(*verifier_, options) {}
  [[nodiscard]] std::vector<std::vector<std::string>> respond(std::span<const ProbeRequest> requests,
                                                              std::size_t samples) override {
    return responder_.respond(requests, samples);
  }
  // Forwarded: pairs a served verifier could not judge are failed answers (builtin_responder.hpp).
  [[nodiscard]] std::size_t failures() const override { return responder_.failures(); }
  [[nodiscard]] std::string failure(const ProbeRequest& request, std::size_t sample) const override {
    return responder_.failure(request, sample);
  }

 private:
  std::unique_ptr<verification::ClaimVerifier> verifier_;
  BuiltinResponder responder_;
};

}  // namespace

std::unique_ptr<Responder> make_responder(const InterrogateCommand& command) {
  const std::string& spec = command.responder;
  if (spec == "builtin") {
    if (!command.open_verifier && command.model_file.empty()) {
      throw UsageError("--responder builtin needs --model FILE: a verifier saved by claimrag verify --save-model");
    }
    return std::make_unique<LoadedBuiltinResponder>(
        command.open_verifier ? command.open_verifier() : verification::load_claim_verifier(command.model_file),
        BuiltinResponderOptions{command.temperature, command.seed});
  }
  if (spec.starts_with(recorded_prefix)) {
    const std::filesystem::path file = spec.substr(recorded_prefix.size());
    if (file.empty()) throw UsageError("--responder recorded:FILE needs a file name");
    return std::make_unique<RecordedResponder>(file);
  }
  if (spec == "http") {
    HttpResponderOptions options = command.http;
    options.temperature = command.temperature;
    return std::make_unique<HttpResponder>(options);
  }
  throw UsageError("unknown --responder '" + spec + "' (expected builtin, recorded:FILE or http)");
}

std::vector<InterrogationPair> command_pairs(const InterrogateCommand& command) {
  const bool from_run = !command.split.empty() || !command.run.empty();
  if (command.pairs.empty() == !from_run) throw UsageError("give either --pairs or --split with --run");
  std::optional<dataset::Corpus> corpus;
  if (!command.data.empty()) corpus = dataset::load_corpus(command.data / "corpus.jsonl");
  if (!from_run) return load_pairs(command.pairs, corpus ? &*corpus : nullptr);
  if (command.split.empty() || command.run.empty()) throw UsageError("--split and --run go together");
  if (!corpus) throw UsageError("--split needs --data, the BEIR folder holding the split");
  const auto queries = dataset::queries_of_split(dataset::load_queries(command.data / "queries.jsonl"),
                                                 dataset::load_split(command.data, command.split),
                                                 (command.data / "qrels" / (command.split + ".tsv")).string());
  std::vector<std::string> unranked;
  auto pairs = pairs_from_run(queries, run::read_trec_run(command.run), command.k, *corpus, unranked);
  if (!unranked.empty()) {
    std::string listed;
    for (std::size_t i = 0; i < unranked.size() && i < 5; ++i) listed += (i ? ", " : "") + unranked[i];
    spdlog::warn("{} of {} claims have no ranking in {} and are not interrogated (first: {})", unranked.size(),
                 queries.size(), command.run.string(), listed);
  }
  if (pairs.empty()) throw DataError(command.run.string(), "no claim of split " + command.split + " has a ranking");
  return pairs;
}

io::OutputDeclaration command_files(const InterrogateCommand& command) {
  io::OutputDeclaration files{.inputs = {command.pairs, command.run, command.data, command.probes, command.model_file},
                              .files = {command.out, command.record, command.claims_out}};
  if (command.responder.rfind(recorded_prefix, 0) == 0) files.inputs.emplace_back(command.responder.substr(recorded_prefix.size()));
  if (command.record.empty() && command.responder == "http") files.files.push_back(default_recording(command.out));
  return files;
}

void run_interrogate(const InterrogateCommand& command) {
  if (command.interrogation.samples < 1) throw UsageError("--samples must be at least 1");
  if (!(command.interrogation.alpha >= 0.0 && command.interrogation.alpha <= 1.0)) {
    throw UsageError("--alpha must lie in [0, 1], got " + std::to_string(command.interrogation.alpha));
  }
  const auto probes = load_probes(command.probes);
  const auto pairs = shard::keep_shard(command_pairs(command), command.shard);
  auto responder = make_responder(command);
  spdlog::info("interrogating {} pairs with {} probes x {} samples", pairs.size(), probes.size(),
               command.interrogation.samples);
  const auto results = interrogate(pairs, probes, *responder, command.interrogation);

  std::size_t unresolved = 0;
  std::size_t unnegated = 0;
  for (const auto& result : results) {
    unresolved += result.unresolved;
    unnegated += result.skipped_probes > 0 ? 1 : 0;
  }
  if (unnegated > 0) {
    spdlog::warn("{} of {} pairs have a claim no negation rule matches: their negated probes were not asked", unnegated,
                 pairs.size());
  }
  std::size_t answers = 0;
  for (const auto& result : results) answers += result.responses.size();
  if (unresolved > 0) spdlog::warn("{} of {} answers could not be resolved: counted as Neutral", unresolved, answers);
  if (const std::size_t failed = responder->failures(); failed > 0) {
    if (static_cast<double>(failed) > command.max_failures * static_cast<double>(answers)) {
      std::string first_reason;
      for (const auto& result : results) {
        for (const auto& response : result.responses) {
          if (first_reason.empty()) first_reason = response.failure;
        }
      }
      throw DataError("--responder " + command.responder,
                      std::to_string(failed) + " of " + std::to_string(answers) +
                          " answers could not be obtained, more than --max-failures " + std::to_string(command.max_failures) +
                          " allows (first reason: " + first_reason + "); nothing written");
    }
    spdlog::warn("{} of {} answers could not be obtained: empty, counted as Neutral and recorded as failed", failed, answers);
  }
  if (const auto* recorded = dynamic_cast<const RecordedResponder*>(responder.get()); recorded && recorded->unused() > 0) {
    spdlog::info("{} answers of the recording were not asked for", recorded->unused());
  }

  write_interrogation(command.out, pairs, probes, results);
  std::filesystem::path record = command.record;
  if (record.empty() && command.responder == "http") record = default_recording(command.out);
  if (!record.empty()) {
    write_recording(record, recorded_answers(pairs, probes, results));
    spdlog::info("answers recorded to {} (replay with --responder recorded:{})", record.string(), record.string());
  }
  if (!command.claims_out.empty()) {
    write_claim_verdicts(command.claims_out, claim_level_verdicts(pairs, results));
  }
  spdlog::info("wrote {}", command.out.string());
}

}  // namespace claimrag::interrogation
