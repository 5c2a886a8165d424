#include "claimrag/bm25/index.hpp"

#include "claimrag/io/atomic_file.hpp"
#include "index_builder.hpp"

namespace claimrag::bm25 {

std::int64_t InvertedIndex::term_id(std::string_view term) const {
  std::size_t low = 0;
  std::size_t high = terms_.size();
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (terms_[middle] < term) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < terms_.size() && terms_[low] == term ? static_cast<std::int64_t>(low) : -1;
}

InvertedIndex build_index(const dataset::Corpus& corpus, std::string corpus_checksum) {
  detail::IndexBuilder builder(std::nullopt);
  for (const auto& document : corpus.documents) builder.add_document(document.id, document.title, document.text);
  detail::MemoryImageSink image;
  builder.finish(image, std::move(corpus_checksum));
  return InvertedIndex::from_built_image(image.take());
}

void save_index(const InvertedIndex& index, const std::filesystem::path& path) {
  const auto image = index.image();
  io::AtomicFile file(path, /*binary=*/true);
  file.stream().write(reinterpret_cast<const char*>(image.data()), static_cast<std::streamsize>(image.size()));
  file.commit();
}

InvertedIndex load_index(const std::filesystem::path& path) { return InvertedIndex::open_file(path); }

}  // namespace claimrag::bm25
