#include "claimrag/tfidf/vectorizer_io.hpp"

#include <nlohmann/json.hpp>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"

namespace claimrag::tfidf {

namespace {

constexpr const char* kFormat = "claimrag-tfidf-vectorizer";
constexpr int kFormatVersion = 1;

}  // namespace

void save(const TfidfVectorizer& vectorizer, const std::filesystem::path& path) {
  const nlohmann::json document = {
      {"format", kFormat},
      {"format_version", kFormatVersion},
      {"max_features", vectorizer.options().max_features},
      {"document_count", vectorizer.document_count()},
      {"terms", vectorizer.terms()},
      {"document_frequencies", vectorizer.document_frequencies()},
      {"fingerprint", vectorizer.fingerprint()},
  };
  io::write_file_atomically(path, document.dump() + "\n");
}

TfidfVectorizer load(const std::filesystem::path& path) {
  const std::string file = path.string();
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(io::read_json_text(path, io::kModelInput));
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(file, std::string("not valid JSON: ") + error.what());
  }
  try {
    if (!document.is_object() || document.value("format", "") != kFormat) {
      throw DataError(file, std::string("not a ") + kFormat + " file");
    }
    const int version = document.at("format_version").get<int>();
    if (version != kFormatVersion) {
      throw DataError(file, "format_version " + std::to_string(version) + " is not supported (" +
                                std::to_string(kFormatVersion) + " is)");
    }
    for (const char* key : {"max_features", "document_count"}) {
      if (!document.at(key).is_number_unsigned()) {
        throw DataError(file, std::string(key) + " is not a non-negative integer");
      }
    }
    TfidfOptions options;
    options.max_features = document.at("max_features").get<std::size_t>();
    TfidfVectorizer vectorizer = [&] {
      try {
        return TfidfVectorizer::from_parts(
            document.at("terms").get<std::vector<std::string>>(),
            document.at("document_frequencies").get<std::vector<std::uint32_t>>(),
            document.at("document_count").get<std::size_t>(), options);
      } catch (const DataError& error) {
        throw DataError(file, error.what());
      }
    }();
    const std::string stored = document.at("fingerprint").get<std::string>();
    if (stored != vectorizer.fingerprint()) {
      throw DataError(file, "fingerprint " + stored + " does not match its contents (" +
                                vectorizer.fingerprint() + ")");
    }
    return vectorizer;
  } catch (const nlohmann::json::exception& error) {
    throw DataError(file, std::string("malformed vectorizer: ") + error.what());
  }
}

}  // namespace claimrag::tfidf
