#include "claimrag/bm25/shard_index.hpp"

#include "claimrag/dataset/beir.hpp"
#include "claimrag/error.hpp"
#include "shard_metadata.hpp"

namespace claimrag::bm25 {

StreamingBuildSummary write_shard_index_streaming(const std::filesystem::path& corpus_jsonl,
                                                  const std::filesystem::path& index_path, const ShardBuild& build,
                                                  const std::string& statistics_file,
                                                  const StreamingBuildOptions& options) {
  const CollectionStatistics& statistics = *build.statistics;
  StreamingIndexBuilder builder(index_path, options);
  // Only the shard's block is parsed: bm25-statistics checked the whole corpus, and the checksum
  // below ties this file to that pass.
  const dataset::JsonLinesScan scan = dataset::for_each_document_in(
      corpus_jsonl, {build.first_document, build.documents},
      [&](const dataset::Document& document, std::size_t /*line*/) {
        builder.add_document(document.id, document.title, document.text);
      });
  const auto another_corpus = [&](const std::string& what) {
    return DataError(statistics_file, "was computed from another corpus than " + corpus_jsonl.string() + " (" + what +
                                          "): compute the statistics again");
  };
  if (scan.checksum != statistics.corpus_checksum) {
    throw another_corpus("checksum " + statistics.corpus_checksum + ", the corpus's " + scan.checksum);
  }
  if (scan.objects != statistics.documents) {
    throw another_corpus(std::to_string(statistics.documents) + " documents, the corpus's " + std::to_string(scan.objects));
  }
  const auto shard_of = [&](const std::vector<std::string_view>& sorted_terms) {
    IndexShard shard{build.shard, build.shards, build.first_document, statistics.documents, statistics.total_length,
                     build.statistics_checksum, {}};
    shard.document_frequencies.reserve(sorted_terms.size());
    for (const std::string_view term : sorted_terms) {
      const std::uint64_t frequency = statistics.document_frequency(term);
      if (frequency == 0) throw another_corpus("they lack the term \"" + std::string(term) + "\"");
      shard.document_frequencies.push_back(frequency);
    }
    return detail::shard_metadata(shard);
  };
  return builder.finish(scan.checksum, shard_of);
}

}  // namespace claimrag::bm25
