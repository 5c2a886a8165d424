#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/cross_encoder_rerank.hpp"
#include "claimrag/experiment/retrieval/rerank_stage.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "shard_flags.hpp"
#include "tei_source.hpp"

namespace claimrag::cli {

void add_rerank_command(CLI::App& root) {
  struct Options {
    std::string data;
    std::string index;
    std::string run;
    std::string out;
    std::string model;
    bool train = false;
    std::string config;
    std::size_t rerank_depth = 0;
    std::string cross_encoder, label;
    std::size_t batch_size = served::kTeiDefaultBatchSize;
    ServedFlags served;
    std::string shard;  ///< --shard
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "rerank", "Reorder the top of a ranking with the trained reranker (--train fits it first)");
  add_data_option(*command, options->data);
  command->add_option("--index", options->index, "BM25 index folder written by claimrag index (not with --cross-encoder)");
  command->add_option("--run", options->run, "TREC run to rerank")->required();
  command->add_option("--out", options->out, "Reranked TREC run to write")->required();
  command->add_option("--model", options->model,
                      "Reranker model (safetensors): written with --train, else read (not with --cross-encoder)");
  command->add_option("--cross-encoder", options->cross_encoder,
                      "Rerank with this pretrained cross-encoder: a Hugging Face folder (one-logit or classification "
                      "head), or tei:URL, a reranker served by Text Embeddings Inference");
  command->add_option("--label", options->label, "--cross-encoder with a classification head: the label whose probability ranks");
  command->add_flag("--train", options->train, "Fit the model on the config's train split and write it to --model");
  command->add_option("--rerank-depth", options->rerank_depth, "Documents reordered at the top of the run (default: the config's, 50)")
      ->check(number_in(1, 1e6));
  add_model_batch_size_option(*command, options->batch_size, "--cross-encoder");
  add_served_flags(*command, options->served, /*chat=*/false);
  add_config_option(*command, options->config);
  add_threads_option(*command);
  add_precision_option(*command);
  add_shard_option(*command, options->shard);
  command->callback([options, command] {
    const ModelSource source = model_source(options->cross_encoder, options->served, options->out);
    if (!options->cross_encoder.empty()) {
      if (!options->index.empty() || !options->model.empty() || options->train) {
        throw UsageError("--cross-encoder reranks on its own: give it without --index, --model and --train");
      }
      if (!options->shard.empty() && !source.served.endpoint.url.empty()) {
        throw UsageError("--shard does not apply to a served --cross-encoder (tei:URL): its recording spans the whole run");
      }
      const auto sharded_config = shard_config(options->shard, options->config, {});
      with_shard_outputs(sharded_command(*command, "rerank", options->shard, options->out, {},
                                         sharded_config ? sharded_config->checksum : std::string()),
                         {.inputs = {options->data, options->run, options->config, source.folder, source.served.replay},
                          .files = {options->out, source.served.record}},
                         [&](shard::ShardSelection* selection) {
                           const auto config = sharded_config ? *sharded_config : config_from(options->config);
                           experiment::run_cross_encoder_rerank(
                               {options->data, options->run, options->out, source.folder, options->label,
                                options->rerank_depth > 0 ? options->rerank_depth : config.rerank.rerank_depth, 0,
                                options->batch_size, source.served, selection});
                         });
      return;
    }
    if (!options->label.empty()) throw UsageError("--label applies with --cross-encoder DIR");
    if (options->index.empty() || options->model.empty()) {
      throw UsageError("rerank needs --index DIR and --model FILE (or --cross-encoder DIR)");
    }
    if (!options->shard.empty() && options->train) {
      throw UsageError("--shard does not apply with --train: train the model once, then give it to every shard as --model");
    }
    io::OutputDeclaration files{.inputs = {options->data, options->index, options->run, options->config}, .files = {options->out}};
    (options->train ? files.files : files.inputs).emplace_back(options->model);
    const auto sharded_config = shard_config(options->shard, options->config, {});
    with_shard_outputs(sharded_command(*command, "rerank", options->shard, options->out, {},
                                       sharded_config ? sharded_config->checksum : std::string()),
                       files, [&](shard::ShardSelection* selection) {
                         auto config = sharded_config ? *sharded_config : config_from(options->config);
                         if (options->rerank_depth > 0) config.rerank.rerank_depth = options->rerank_depth;
                         experiment::run_rerank_stage(
                             {options->data, options->index, options->run, options->out, options->model, options->train, selection},
                             config);
                       });
  });
}

}  // namespace claimrag::cli
