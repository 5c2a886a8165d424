#include <spdlog/spdlog.h>

#include "claimrag/experiment/retrieval/bm25_shards.hpp"
#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/retrieval/dense_stage.hpp"
#include "claimrag/experiment/retrieval/encoder_index.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "shard_flags.hpp"
#include "tei_source.hpp"

namespace claimrag::cli {

void add_retrieve_command(CLI::App& root) {
  struct Options {
    std::string data;
    std::vector<std::string> indexes;  ///< --index, repeated for the shards of a document-sharded BM25 index
    std::string method;
    std::string split;
    std::string queries;
    std::size_t k = 0;
    std::string out;
    std::string config;
    std::string encoder, query_prefix;
    std::size_t batch_size = served::kTeiDefaultBatchSize;
    ServedFlags served;
    std::string shard;  ///< --shard
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "retrieve", "Rank a corpus's documents for each claim and write the top k as a TREC run");
  add_data_option(*command, options->data);
  command
      ->add_option("--index", options->indexes,
                   "Index folder written by claimrag index; --method bm25: repeated, every shard of a document-sharded "
                   "index (index --shard K/N), in any order")
      ->required()
      ->take_all();
  add_method_option(*command, options->method);
  auto* split = command->add_option("--split", options->split, "Run the judged queries of this split (qrels/NAME.tsv)");
  auto* queries = command->add_option("--queries", options->queries, "Run the queries of this BEIR-style queries.jsonl");
  split->excludes(queries);
  command->add_option("--k", options->k, "Documents per query (default: the config's depth, 200)")
      ->check(number_in(1, 1e6));
  command->add_option("--out", options->out, "TREC run file to write")->required();
  command->add_option("--encoder", options->encoder,
                      "Index of a pretrained encoder: its folder, when not where the index recorded it (same weights), or "
                      "tei:URL for an index embedded by Text Embeddings Inference, when not at the recorded URL");
  auto* query_prefix = command->add_option("--query-prefix", options->query_prefix,
                                           "Index of a pretrained encoder: text put before every query (default: the recorded one)");
  add_model_batch_size_option(*command, options->batch_size, "Index of a pretrained encoder");
  add_served_flags(*command, options->served, /*chat=*/false);
  add_config_option(*command, options->config);
  add_threads_option(*command);
  add_precision_option(*command);
  add_shard_option(*command, options->shard);
  command->callback([options, query_prefix, command] {
    if (options->indexes.size() > 1 && options->method != "bm25") throw UsageError("--index is repeated only with --method bm25");
    const std::string index = options->indexes.front();
    // A served index embeds its queries through the URL it recorded unless --encoder tei:URL says another.
    const bool served_index = options->method == "dense" && experiment::is_served_encoder_index(index);
    ModelSource source;
    if (served_index && options->encoder.empty()) {
      source.served = resolve_served(options->served, true, options->out);
    } else {
      source = model_source(options->encoder, options->served, options->out);
    }
    // Dense scores are products over the whole batch of queries, whose rounding depends on the
    // batch's size (measured: the last digits differ), so a dense shard could not give the whole
    // run's bytes; BM25 scores each query alone.
    if (!options->shard.empty() && options->method != "bm25") {
      throw UsageError("--shard applies to retrieve --method bm25: dense scores round differently in smaller batches of queries");
    }
    const auto sharded_config = shard_config(options->shard, options->config, {});
    const auto sharded = sharded_command(*command, "retrieve", options->shard, options->out, {},
                                         sharded_config ? sharded_config->checksum : std::string());
    std::vector<std::filesystem::path> inputs{options->data};
    inputs.insert(inputs.end(), options->indexes.begin(), options->indexes.end());
    inputs.insert(inputs.end(), {options->queries, options->config, source.folder, source.served.replay});
    with_shard_outputs(sharded,
                       {.inputs = inputs,
                        .files = {options->out, source.served.record}},
                       [&](shard::ShardSelection* selection) {
      const auto config = sharded_config ? *sharded_config : config_from(options->config);
      const auto queries = shard::keep_shard(experiment::select_queries(options->data, {options->split, options->queries}), selection);
      const bool bm25 = options->method == "bm25";
      const std::size_t k = options->k > 0 ? options->k : bm25 ? config.bm25.depth : config.dense.depth;
      const bool encoder = !bm25 && experiment::is_encoder_index(index);
      if (!encoder && (!options->encoder.empty() || query_prefix->count() > 0)) {
        throw UsageError("--encoder and --query-prefix apply to a dense index built with --encoder DIR or tei:URL");
      }
      experiment::EncoderSettings settings{source.folder, {}, {}, 0, options->batch_size, source.served};
      if (query_prefix->count() > 0) settings.query_prefix = options->query_prefix;
      const std::vector<std::filesystem::path> folders(options->indexes.begin(), options->indexes.end());
      const auto run = bm25      ? experiment::retrieve_bm25_shards(options->data, folders, queries, config.bm25, k)
                       : encoder ? experiment::retrieve_with_encoder(options->data, index, queries, settings, k)
                                 : experiment::retrieve_dense(experiment::load_dense_index(options->data, index, config), queries, k);
      run::write_trec_run(run, options->out);
      spdlog::info("{} queries, top {} -> {}", queries.size(), k, options->out);
    });
  });
}

}  // namespace claimrag::cli
