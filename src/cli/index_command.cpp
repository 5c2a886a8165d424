#include "claimrag/experiment/retrieval/bm25_shards.hpp"
#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/retrieval/dense_stage.hpp"
#include "claimrag/experiment/retrieval/encoder_index.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "tei_source.hpp"

namespace claimrag::cli {

void add_index_command(CLI::App& root) {
  struct Options {
    std::string data;
    std::string method;
    std::string out;
    std::string config;
    std::string encoder, query_prefix, passage_prefix;
    std::size_t batch_size = served::kTeiDefaultBatchSize;
    ServedFlags served;
    std::string shard;       ///< --shard: one shard of a document-sharded BM25 index
    std::string statistics;  ///< --statistics
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "index", "Build a BM25 index of a corpus, or train a dense retriever on it");
  add_data_option(*command, options->data);
  add_method_option(*command, options->method);
  command->add_option("--out", options->out, "Index folder to write")->required();
  command->add_option("--encoder", options->encoder,
                      "--method dense: encode with this pretrained sentence encoder instead of training one: a Hugging Face "
                      "folder, or tei:URL, an embedding model served by Text Embeddings Inference");
  auto* query_prefix = command->add_option("--query-prefix", options->query_prefix,
                                           "--encoder: text put before every query (e5: \"query: \"); recorded for retrieve");
  auto* passage_prefix = command->add_option("--passage-prefix", options->passage_prefix,
                                             "--encoder: text put before every document (e5: \"passage: \")");
  add_model_batch_size_option(*command, options->batch_size, "--encoder");
  add_served_flags(*command, options->served, /*chat=*/false);
  add_config_option(*command, options->config);
  add_threads_option(*command);
  add_precision_option(*command);
  command
      ->add_option("--shard", options->shard,
                   "--method bm25: index only shard K of N of the corpus's documents (K/N: contiguous blocks in corpus "
                   "order), or slurm (K and N from the Slurm job array), scored with the whole corpus's statistics")
      ->check(CLI::Validator([](std::string& value) { return shard::shard_text_problem(value); }, "K/N|slurm"));
  command->add_option("--statistics", options->statistics,
                      "--shard: the corpus's statistics written by `claimrag bm25-statistics` (default: computed here, the "
                      "same bytes)");
  command->callback([options, query_prefix, passage_prefix] {
    if (options->shard.empty() && !options->statistics.empty()) throw UsageError("--statistics applies with --shard");
    if (!options->shard.empty() && (options->method != "bm25" || !options->encoder.empty())) {
      throw UsageError("--shard applies to index --method bm25");
    }
    // `--shard slurm` outside an array is refused before anything is read.
    const auto spec = options->shard.empty() ? shard::ShardSpec{} : shard::parse_shard(options->shard);
    // A served encoder's recording goes inside the index, beside encoder.json.
    const ModelSource source = model_source(options->encoder, options->served,
                                            std::filesystem::path(options->out) / experiment::kEncoderRecordFile);
    const io::OutputDeclaration outputs{.inputs = {options->data, options->config, options->statistics, source.folder, source.served.replay},
                                        .files = {source.served.record},
                                        .folders = {options->out}};
    with_outputs(outputs, [&] {
      const auto config = config_from(options->config);
      if (options->encoder.empty() && (query_prefix->count() > 0 || passage_prefix->count() > 0)) {
        throw UsageError("--query-prefix and --passage-prefix apply with --encoder DIR or tei:URL");
      }
      if (!options->encoder.empty()) {
        if (options->method != "dense") throw UsageError("--encoder applies with --method dense");
        experiment::EncoderSettings settings{source.folder, {}, {}, 0, options->batch_size, source.served};
        if (query_prefix->count() > 0) settings.query_prefix = options->query_prefix;
        if (passage_prefix->count() > 0) settings.passage_prefix = options->passage_prefix;
        experiment::index_with_encoder(options->data, options->out, settings, config);
      } else if (!options->shard.empty()) {
        experiment::index_bm25_shard(options->data, options->out, spec, options->statistics, config);
      } else if (options->method == "bm25") {
        experiment::index_bm25(options->data, options->out, config);
      } else {
        experiment::index_dense(options->data, options->out, config);
      }
    });
  });
}

}  // namespace claimrag::cli
