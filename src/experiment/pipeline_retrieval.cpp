// The retrieval stages of the reproduction: statistics, the two retrievers, fusion, reranking, and
// the training claims' runs (experiment/pipeline.hpp).

#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/retrieval/dense_stage.hpp"
#include "claimrag/experiment/retrieval/fusion_stage.hpp"
#include "claimrag/experiment/paper_tables.hpp"
#include "claimrag/experiment/pipeline.hpp"
#include "claimrag/experiment/retrieval/rerank_stage.hpp"
#include "claimrag/experiment/retrieval/stats_stage.hpp"
#include "claimrag/rerank/model_io.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

constexpr const char* kReranker = "models/reranker.safetensors";

fusion::RrfOptions fusion_options(const ExperimentConfig& config) { return {config.fusion.rrf_k, config.fusion.depth, "hybrid"}; }

}  // namespace

Stage statistics_stage() {
  return {"statistics", {}, {"tables/table1.tsv", "tables/table1.json", "tables/token_lengths.tsv"}, [](StageContext& context) {
            const auto statistics = context.timer.time("statistics", [&] { return dataset_statistics(context.beir); });
            write_table1(statistics, context.work / "tables");
            write_token_lengths(statistics, context.work / "tables");
            context.results["table1"] = table1_results(statistics);
          }};
}

Stage bm25_stage() {
  return {"bm25", {}, {"models/bm25", "runs/bm25.trec"}, [](StageContext& context) {
            const auto& config = context.config;
            context.bm25_index = std::make_unique<bm25::InvertedIndex>(
                context.timer.time("bm25 index", [&] { return index_bm25(context.beir, context.work / "models" / "bm25", config); }));
            // Searched as read back from its file, as a later `claimrag retrieve` would.
            const auto run = context.timer.time("bm25 retrieval", [&] {
              return retrieve_bm25(bm25::Searcher(*context.bm25_index, config.bm25.parameters), context.test_queries,
                                   config.bm25.depth);
            });
            run::write_trec_run(run, context.work / "runs" / "bm25.trec");
            context.evaluate_into("bm25", run);
          }};
}

Stage dense_stage() {
  return {"dense", {}, {"models/dense", "runs/dense.trec"}, [](StageContext& context) {
            const auto& config = context.config;
            context.dense_index = std::make_unique<DenseIndex>(context.timer.time(
                "dense training", [&] { return index_dense(context.beir, context.work / "models" / "dense", config); }));
            const auto run = context.timer.time(
                "dense retrieval", [&] { return retrieve_dense(*context.dense_index, context.test_queries, config.dense.depth); });
            run::write_trec_run(run, context.work / "runs" / "dense.trec");
            context.evaluate_into("dense", run);
          }};
}

Stage fusion_stage() {
  return {"fusion", {"runs/bm25.trec", "runs/dense.trec"}, {"runs/hybrid.trec"}, [](StageContext& context) {
            const fs::path runs = context.work / "runs";
            const auto hybrid = context.timer.time(
                "fusion", [&] { return fuse_run_files({runs / "bm25.trec", runs / "dense.trec"}, fusion_options(context.config)); });
            run::write_trec_run(hybrid, runs / "hybrid.trec");
            context.evaluate_into("hybrid", hybrid);
          }};
}

Stage rerank_stage() {
  return {"rerank", {"models/bm25", "runs/hybrid.trec"}, {kReranker, "runs/hybrid_rerank.trec"}, [](StageContext& context) {
            const auto& config = context.config;
            const fs::path index_folder = context.work / "models" / "bm25";
            context.rerank_resources =
                context.bm25_index ? std::make_unique<RerankResources>(context.beir, index_folder, std::move(*context.bm25_index), config)
                                   : std::make_unique<RerankResources>(context.beir, index_folder, config);
            context.bm25_index.reset();
            const auto& resources = *context.rerank_resources;
            context.reranker = context.timer.time("reranker training", [&] { return train_reranker_on_split(resources, config); });
            const fs::path model_file = context.work / kReranker;
            rerank::save_model(*context.reranker, model_file);
            const auto reranked = context.timer.time("reranking", [&] {
              return rerank_run_file(resources, *context.reranker, model_file.string(), context.work / "runs" / "hybrid.trec", config);
            });
            run::write_trec_run(reranked, context.work / "runs" / "hybrid_rerank.trec");
            context.evaluate_into(section_for_tag(reranked.tag), reranked);
          }};
}

// The combined gate signal learns from the training claims run through the same pipeline.
Stage training_runs_stage() {
  return {"training_runs",
          {"models/bm25", "models/dense", kReranker},
          {"runs/train/bm25.trec", "runs/train/dense.trec", "runs/train/hybrid.trec", "runs/train/hybrid_rerank.trec"},
          [](StageContext& context) {
            const auto& config = context.config;
            context.timer.time("training-claim runs", [&] {
              const auto queries = context.queries_of(config.data.train_split);
              const fs::path runs = context.work / "runs" / "train";
              // The reranker's BM25 index is the one in models/bm25, already loaded and checked.
              const auto& resources = *context.rerank_resources;
              run::write_trec_run(retrieve_bm25(resources.extractor().searcher(), queries, config.bm25.depth), runs / "bm25.trec");
              run::write_trec_run(retrieve_dense(*context.dense_index, queries, config.dense.depth), runs / "dense.trec");
              run::write_trec_run(fuse_run_files({runs / "bm25.trec", runs / "dense.trec"}, fusion_options(config)),
                                  runs / "hybrid.trec");
              run::write_trec_run(rerank_run_file(resources, *context.reranker, (context.work / kReranker).string(),
                                                  runs / "hybrid.trec", config),
                                  runs / "hybrid_rerank.trec");
            });
          }};
}

}  // namespace claimrag::experiment
