// The files of the older tokenizer classes, read as those (slow) classes tokenise: vocab.txt as
// BertTokenizer, vocab.json + merges.txt as RobertaTokenizer. Their steps are those of the
// pipeline the reference converts them to, with the slow classes' own rules where they differ:
// BertTokenizer's text cleaning drops every C* character and puts the text in NFC, and both cut
// a long pair one token at a time from the longer text.
#include <cctype>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/tokenizer/bpe.hpp"
#include "claimrag/tokenizer/pipeline.hpp"
#include "claimrag/tokenizer/unicode.hpp"
#include "claimrag/tokenizer/wordpiece.hpp"
#include "json_fields.hpp"
#include "readers.hpp"

namespace claimrag::tokenizer {
namespace {

// The special tokens of a tokenizer class, in the order the reference adds them.
struct SpecialDefault {
  const char* name;
  const char* content;
  bool lstrip;
};

// The added tokens: tokenizer_config.json's added_tokens_decoder when it is there, else the special
// tokens (ids from the vocabulary, or after it when it lacks them).
std::vector<AddedToken> special_added_tokens(const FolderSettings& settings, const std::vector<SpecialDefault>& defaults,
                                             const SubwordModel& model) {
  if (!settings.added_tokens_decoder.empty()) return settings.added_tokens_decoder;
  std::vector<AddedToken> tokens;
  std::set<std::string> seen;
  std::int32_t next_id = static_cast<std::int32_t>(model.size());
  for (const SpecialDefault& entry : defaults) {
    SpecialTokenSetting setting;
    const auto found = settings.special_tokens.find(entry.name);
    if (found != settings.special_tokens.end()) {
      setting = found->second;
    } else {
      setting.content = entry.content;
      setting.lstrip = entry.lstrip;
    }
    if (setting.content.empty() || !seen.insert(setting.content).second) continue;
    AddedToken token;
    token.content = setting.content;
    token.lstrip = setting.lstrip;
    token.rstrip = setting.rstrip;
    token.single_word = setting.single_word;
    token.special = true;
    token.normalized = setting.normalized.value_or(false);
    const auto id = model.token_to_id(token.content);
    token.id = id ? *id : next_id++;
    tokens.push_back(token);
  }
  return tokens;
}

// The text as Python reads a file in text mode: "\r\n" and a lone "\r" become "\n".
std::string with_universal_newlines(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out.push_back(text[i]);
    } else {
      out.push_back('\n');
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    }
  }
  return out;
}

std::int32_t required_token_id(const PipelineParts& parts, const std::string& token, const std::string& source) {
  for (const AddedToken& added : parts.added_tokens)
    if (added.content == token) return added.id;
  if (const auto id = parts.model->token_to_id(token)) return *id;
  throw DataError(source, "the vocabulary has no \"" + token + "\" token, which the pair template needs");
}

// The slow classes' truncation: tokenizer_config.json's side and length, one token at a time.
void apply_slow_class_limits(const FolderSettings& settings, PipelineParts& parts) {
  if (settings.truncation_side == "left") parts.truncation_side = TruncationSide::left;
  parts.pair_truncation = PairTruncation::slow;
  parts.model_max_length = settings.model_max_length;
}

}  // namespace

std::unique_ptr<Tokenizer> read_wordpiece_vocabulary(const std::filesystem::path& file, const FolderSettings& settings) {
  const std::string source = file.string();
  const std::string text = with_universal_newlines(io::read_file(file, io::kVocabularyInput));
  // One token per line, its id the line's index. A token on two lines is refused: BertTokenizer
  // keeps its last line, which leaves the first line's id to no token at all.
  Vocabulary vocabulary;
  std::size_t start = 0;
  std::int32_t index = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string token = text.substr(start, end - start);
    (void)unicode::decode_utf8(token, source + ":" + std::to_string(index + 1));
    if (const auto [first, added] = vocabulary.emplace(token, index); !added) {
      throw DataError(source, static_cast<std::size_t>(index) + 1,
                      "the token \"" + abbreviated(token, 80) + "\" is also on line " + std::to_string(first->second + 1) +
                          ": each token of the vocabulary must be on one line");
    }
    ++index;
    start = end + 1;
  }
  if (vocabulary.empty()) throw DataError(source, "the vocabulary is empty");
  PipelineParts parts;
  parts.source = file.filename().string();
  WordPieceOptions options;
  options.unk_token = settings.token("unk_token", "[UNK]");
  parts.model = std::make_unique<WordPiece>(std::move(vocabulary), options, source);
  NormalizerStep step;
  step.bert.slow_class = true;
  step.bert.lowercase = settings.do_lower_case.value_or(true);
  step.bert.strip_accents = settings.strip_accents.value_or(step.bert.lowercase);
  step.bert.handle_chinese_chars = settings.tokenize_chinese_chars.value_or(true);
  parts.normalizer = Normalizer({step});
  parts.pre_tokenizer = PreTokenizer(PreTokenizer::Kind::bert);
  parts.added_tokens = special_added_tokens(
      settings,
      {{"unk_token", "[UNK]", false}, {"sep_token", "[SEP]", false}, {"pad_token", "[PAD]", false},
       {"cls_token", "[CLS]", false}, {"mask_token", "[MASK]", false}},
      *parts.model);
  parts.pair_template = PairTemplate::bert(required_token_id(parts, settings.token("cls_token", "[CLS]"), source),
                                           required_token_id(parts, settings.token("sep_token", "[SEP]"), source));
  parts.pad_id = required_token_id(parts, settings.token("pad_token", "[PAD]"), source);
  apply_slow_class_limits(settings, parts);
  return std::make_unique<PipelineTokenizer>(std::move(parts));
}

std::unique_ptr<Tokenizer> read_byte_level_bpe_files(const std::filesystem::path& vocabulary_file,
                                                     const std::filesystem::path& merges_file,
                                                     const FolderSettings& settings, ByteLevelFamily family) {
  const std::string vocabulary_source = vocabulary_file.string();
  const nlohmann::json vocab = read_json_object(vocabulary_file);
  Vocabulary vocabulary;
  for (const auto& [token, id] : vocab.items()) {
    if (!id.is_number_integer() || id.get<std::int64_t>() < 0 || id.get<std::int64_t>() > 0x7FFFFFFF)
      throw DataError(vocabulary_source, "the id of \"" + abbreviated(token, 80) + "\" should be a non-negative integer");
    vocabulary[token] = static_cast<std::int32_t>(id.get<std::int64_t>());
  }
  // RobertaTokenizer drops the first line (the "#version" header) and the last (empty after the
  // final newline) whatever they hold, and splits each merge at whitespace.
  const std::string merges_source = merges_file.string();
  const std::string text = with_universal_newlines(io::read_file(merges_file, io::kVocabularyInput));
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::vector<std::pair<std::string, std::string>> merges;
  for (std::size_t line = 1; line + 1 < lines.size(); ++line) {
    std::vector<std::string> parts;
    std::size_t at = 0;
    const std::string& merge = lines[line];
    while (at < merge.size()) {
      while (at < merge.size() && std::isspace(static_cast<unsigned char>(merge[at]))) ++at;
      std::size_t end = at;
      while (end < merge.size() && !std::isspace(static_cast<unsigned char>(merge[end]))) ++end;
      if (end > at) parts.push_back(merge.substr(at, end - at));
      at = end;
    }
    if (parts.size() != 2) throw DataError(merges_source, line + 1, "a merge should be two tokens separated by a space");
    merges.emplace_back(parts[0], parts[1]);
  }
  PipelineParts parts;
  parts.source = vocabulary_file.filename().string() + " + " + merges_file.filename().string();
  parts.model = std::make_unique<Bpe>(std::move(vocabulary), merges, BpeOptions{}, merges_source);
  parts.pre_tokenizer = PreTokenizer(PreTokenizer::Kind::byte_level, false);
  parts.prefix_space_once = settings.add_prefix_space.value_or(false);
  // RobertaTokenizer's and DebertaTokenizer's mask token takes the space before it.
  const bool deberta = family == ByteLevelFamily::deberta;
  const char* cls = deberta ? "[CLS]" : "<s>";
  const char* sep = deberta ? "[SEP]" : "</s>";
  const char* pad = deberta ? "[PAD]" : "<pad>";
  parts.added_tokens = special_added_tokens(
      settings,
      {{"bos_token", cls, false}, {"eos_token", sep, false}, {"unk_token", deberta ? "[UNK]" : "<unk>", false},
       {"sep_token", sep, false}, {"pad_token", pad, false}, {"cls_token", cls, false},
       {"mask_token", deberta ? "[MASK]" : "<mask>", true}},
      *parts.model);
  const auto cls_id = required_token_id(parts, settings.token("cls_token", cls), vocabulary_source);
  const auto sep_id = required_token_id(parts, settings.token("sep_token", sep), vocabulary_source);
  parts.pair_template = deberta ? PairTemplate::bert(cls_id, sep_id) : PairTemplate::roberta(cls_id, sep_id);
  parts.pad_id = required_token_id(parts, settings.token("pad_token", pad), vocabulary_source);
  apply_slow_class_limits(settings, parts);
  return std::make_unique<PipelineTokenizer>(std::move(parts));
}

}  // namespace claimrag::tokenizer
