#include "claimrag/bm25/streaming_build.hpp"

#include "claimrag/dataset/beir.hpp"
#include "claimrag/error.hpp"
#include "index_builder.hpp"

namespace claimrag::bm25 {

StreamingIndexBuilder::StreamingIndexBuilder(std::filesystem::path index_path, StreamingBuildOptions options)
    : index_path_(std::move(index_path)),
      builder_(std::make_unique<detail::IndexBuilder>(detail::RunSpill{index_path_, options.run_budget_bytes, options.small_run_bytes})) {}

StreamingIndexBuilder::~StreamingIndexBuilder() = default;

void StreamingIndexBuilder::add_document(std::string_view id, std::string_view title, std::string_view text) {
  if (!builder_) throw InternalError("bm25 streaming build: a document added after finish()");
  builder_->add_document(id, title, text);
}

StreamingBuildSummary StreamingIndexBuilder::finish(std::string corpus_checksum, const ShardMetadataOf& shard_of) {
  if (!builder_) throw InternalError("bm25 streaming build: finish() called twice");
  detail::FileImageSink sink(index_path_);
  StreamingBuildSummary summary;
  summary.index_bytes = builder_->finish(sink, std::move(corpus_checksum), shard_of);
  sink.commit();
  summary.documents = builder_->document_count();
  summary.terms = builder_->term_count();
  summary.postings = builder_->posting_count();
  summary.runs = builder_->spilled_runs();
  builder_.reset();  // removes the runs
  return summary;
}

StreamingBuildSummary write_index_streaming(const std::filesystem::path& corpus_jsonl,
                                            const std::filesystem::path& index_path,
                                            const StreamingBuildOptions& options) {
  StreamingIndexBuilder builder(index_path, options);
  const std::string checksum = dataset::for_each_document(
      corpus_jsonl, [&](const dataset::Document& document, std::size_t /*line*/) {
        builder.add_document(document.id, document.title, document.text);
      });
  return builder.finish(checksum);
}

}  // namespace claimrag::bm25
