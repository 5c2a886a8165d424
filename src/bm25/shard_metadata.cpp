#include "shard_metadata.hpp"

#include "claimrag/error.hpp"

namespace claimrag::bm25::detail {
namespace {

std::uint64_t count_field(const nlohmann::json& object, const char* key, const std::string& source) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number_unsigned()) {
    throw DataError(source, std::string("shard metadata has no non-negative integer \"") + key + "\"");
  }
  return found->get<std::uint64_t>();
}

}  // namespace

nlohmann::json shard_metadata(const IndexShard& shard) {
  return {{"shard", shard.shard},
          {"shards", shard.shards},
          {"first_document", shard.first_document},
          {"collection_documents", shard.collection_documents},
          {"collection_total_length", shard.collection_total_length},
          {"statistics_checksum", shard.statistics_checksum},
          {"document_frequencies", shard.document_frequencies}};
}

IndexShard read_shard_metadata(const nlohmann::json& object, const std::string& source, std::uint64_t documents,
                               std::span<const std::uint64_t> posting_offsets) {
  if (!object.is_object()) throw DataError(source, "shard metadata is not an object");
  IndexShard shard;
  shard.shard = count_field(object, "shard", source);
  shard.shards = count_field(object, "shards", source);
  shard.first_document = count_field(object, "first_document", source);
  shard.collection_documents = count_field(object, "collection_documents", source);
  shard.collection_total_length = count_field(object, "collection_total_length", source);
  const auto checksum = object.find("statistics_checksum");
  if (checksum == object.end() || !checksum->is_string()) throw DataError(source, "shard metadata has no statistics_checksum string");
  shard.statistics_checksum = checksum->get<std::string>();
  if (shard.shard >= shard.shards) throw DataError(source, "shard metadata names shard " + std::to_string(shard.shard) + " of " + std::to_string(shard.shards));
  if (shard.first_document > shard.collection_documents || documents > shard.collection_documents - shard.first_document) {
    throw DataError(source, "shard metadata places the shard's documents beyond the corpus's " + std::to_string(shard.collection_documents));
  }
  const auto frequencies = object.find("document_frequencies");
  const std::size_t terms = posting_offsets.empty() ? 0 : posting_offsets.size() - 1;
  if (frequencies == object.end() || !frequencies->is_array() || frequencies->size() != terms) {
    throw DataError(source, "shard metadata needs document_frequencies, one per term (" + std::to_string(terms) + ")");
  }
  shard.document_frequencies.reserve(terms);
  for (std::size_t t = 0; t < terms; ++t) {
    const auto& value = (*frequencies)[t];
    const std::uint64_t own = posting_offsets[t + 1] - posting_offsets[t];
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() < own || value.get<std::uint64_t>() > shard.collection_documents) {
      throw DataError(source, "shard metadata: term " + std::to_string(t) + "'s corpus document frequency is not in [" +
                                  std::to_string(own) + ", " + std::to_string(shard.collection_documents) + "]");
    }
    shard.document_frequencies.push_back(value.get<std::uint64_t>());
  }
  return shard;
}

}  // namespace claimrag::bm25::detail
