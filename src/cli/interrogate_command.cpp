#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/interrogation/command.hpp"
#include "commands.hpp"
#include "judge_flags.hpp"
#include "options.hpp"
#include "shard_flags.hpp"
#include "shipped_defaults.hpp"

namespace claimrag::cli {
namespace {

/// The built-in responder's verifier. A served one (--verifier llm:URL) takes its endpoint's rules
/// from the flags interrogate already has for its http responder (--llm-model, --api-key-env,
/// --timeout, --deadline, --max-reply-bytes, --retries, --concurrency) and records its exchanges
/// beside --out (<out>.recording.jsonl); interrogate's --record stays the answers' recording.
experiment::VerifierSource responder_verifier(const std::string& spec, const interrogation::InterrogateCommand& command) {
  experiment::VerifierSource source;
  source.spec = spec;
  source.model = command.model_file;
  source.record_beside = command.out;
  if (!is_served_verifier(spec) || command.responder != "builtin") return source;
  const auto& http = command.http;
  ServedFlags flags;
  flags.served.endpoint = interrogation::endpoint_options(http);
  flags.served.endpoint.url.clear();  // the verifier's URL is its spec's
  source.served = resolve_served(flags, /*served=*/true, command.out);
  source.llm_model = http.model;
  return source;
}

/// What `interrogate --shard` records (`config` is given when sharded), and its refusals: a shard
/// writes --out alone (the claim-level verdicts of --claims-out gather pairs of other shards, and
/// --record has no name merge could derive), with the built-in or a recorded responder over a
/// verifier on this machine (a served model's recording and failure count are the whole run's).
ShardedCommand interrogate_shard(const CLI::App& command, const std::string& text, const interrogation::InterrogateCommand& run,
                                 const experiment::VerifierSource& source, const experiment::ExperimentConfig* config) {
  if (config == nullptr) return sharded_command(command, "interrogate", text, run.out, {}, {});
  if (!run.claims_out.empty() || !run.record.empty()) throw UsageError("--shard writes --out alone: give it without --claims-out and --record");
  if (run.responder == "http") throw UsageError("--shard does not apply with --responder http: its recording spans the whole run");
  refuse_served_shard(source.spec);
  return sharded_command(command, "interrogate", text, run.out, {{experiment::verifier_meta_output(source.spec, run.out), "verifier record"}},
                         config->checksum, shard_verifier_identity(source, source.model, {}, *config));
}

}  // namespace

void add_interrogate_command(CLI::App& root) {
  auto options = std::make_shared<interrogation::InterrogateCommand>();
  auto verifier = std::make_shared<std::string>();
  auto reading = std::make_shared<CheckpointReading>();
  auto config = std::make_shared<std::string>();
  auto* command = root.add_subcommand(
      "interrogate", "Ask many agreeing and conflicting questions about each (claim, abstract) pair and fuse the answers into a verdict");
  auto* pairs = command->add_option("--pairs", options->pairs,
                                    "JSON Lines {\"id\", \"claim\", \"doc_id\"|\"evidence\"[, \"claim_id\"]}");
  auto* split = command->add_option("--split", options->split, "Interrogate this split's claims with their top --k documents of --run");
  auto* run = command->add_option("--run", options->run, "TREC run holding the split's rankings");
  command->add_option("--k", options->k, "Documents per claim from --run")->capture_default_str()->check(number_in(1, 1000));
  pairs->excludes(split)->excludes(run);
  split->needs(run);
  run->needs(split);
  command->add_option("--data", options->data, "BEIR dataset folder, for pairs given by doc_id and for --split");
  auto* probes = command->add_option("--probes", options->probes, "Probe templates (JSON)");
  probes->capture_default_str();
  command->add_option("--samples", options->interrogation.samples, "Answers per probe, K")->capture_default_str()->check(number_in(1, 1000));
  command->add_option("--responder", options->responder, "builtin | recorded:FILE | http")->required();
  command->add_option("--model", options->model_file,
                      "The built-in responder's verifier model (default: the built-in free-text verifier)");
  add_verifier_option(*command, *verifier);
  add_checkpoint_reading_options(*command, *reading);
  add_config_option(*command, *config);
  add_threads_option(*command);
  add_precision_option(*command);
  command->add_option("--endpoint", options->http.endpoint,
                      "http responder: base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8080/v1");
  command->add_option("--llm-model", options->http.model, "http responder: the model name sent to the endpoint");
  command->add_option("--api-key-env", options->http.api_key_variable,
                      "http responder: environment variable holding the API key")
      ->capture_default_str();
  command->add_option("--timeout", options->http.timeout_seconds, "http responder: seconds per attempt")
      ->capture_default_str()
      ->check(number_in(0.001, 86400));
  command->add_option("--retries", options->http.retries, "http responder: attempts after a failed one")
      ->capture_default_str()
      ->check(number_in(0, 100));
  command->add_option("--concurrency", options->http.concurrency, "http responder: requests in flight")
      ->capture_default_str()
      ->check(number_in(1, 256));
  command->add_option("--temperature", options->temperature, "Sampling temperature (builtin and http)")
      ->capture_default_str()
      ->check(number_in(0, 100));
  command->add_option("--alpha", options->interrogation.alpha, "Weight of the agree probes, in [0, 1]")
      ->capture_default_str()
      ->check(number_in(0, 1));
  command->add_option("--seed", options->seed, "Seed of the built-in responder's sampling")
      ->capture_default_str()
      ->check(number_in(0, 1.8e19));
  command->add_option("--deadline", options->http.deadline_seconds,
                      "http responder: seconds a whole attempt may take, however slowly the reply arrives")
      ->capture_default_str()
      ->check(number_in(0.001, 86400));
  command->add_option("--max-reply-bytes", options->http.max_reply_bytes,
                      "http responder: a longer reply is cut and counts as a failed attempt")
      ->capture_default_str()
      ->check(number_in(1, 1 << 30));
  command->add_option("--max-failures", options->max_failures,
                      "Share of answers that may not be obtained (counted Neutral, recorded as failed); more fails the run")
      ->capture_default_str()
      ->check(number_in(0, 1));
  command->add_option("--out", options->out, "JSON Lines: every answer and the fused verdicts per pair")->required();
  command->add_option("--record", options->record,
                      "Every answer in the recorded format (default for http: <out>.responses.jsonl)");
  command->add_option("--claims-out", options->claims_out, "JSON Lines: the claim-level verdicts");
  auto shard_text = std::make_shared<std::string>();
  add_shard_option(*command, *shard_text);
  command->callback([options, verifier, reading, config, probes, shard_text, command] {
    default_to_shipped(*probes, options->probes);
    auto run = *options;
    const experiment::VerifierSource source = responder_verifier(*verifier, *options);
    check_checkpoint_reading(*reading, *verifier);
    const std::string config_file = *config;
    const auto sharded_config = shard_config(*shard_text, config_file, *reading);
    const auto sharded = interrogate_shard(*command, *shard_text, run, source, sharded_config ? &*sharded_config : nullptr);
    run.open_verifier = [source, config_file, declared = *reading, sharded_config] {
      return experiment::open_verifier(source, sharded_config ? *sharded_config : config_from(config_file, declared));
    };
    auto files = interrogation::command_files(run);
    files.files.push_back(experiment::verifier_meta_output(*verifier, options->out));
    files.files.push_back(source.served.record);
    files.inputs.push_back(verifier_input(source));
    with_shard_outputs(sharded, files, [&](shard::ShardSelection* selection) {
      run.shard = selection;
      interrogation::run_interrogate(run);
    });
  });
}

}  // namespace claimrag::cli
