#include "claimrag/io/shown_text.hpp"

#include <spdlog/details/log_msg.h>
#include <spdlog/formatter.h>

#include <utility>

namespace claimrag::io {
namespace {

void append_code(std::string& text, unsigned code) {
  constexpr char kHex[] = "0123456789abcdef";
  text += "\\u00";
  text.push_back(kHex[(code >> 4) & 0xf]);
  text.push_back(kHex[code & 0xf]);
}

// The message of every log line escaped before the inner sink formats it.
class EscapingSink final : public spdlog::sinks::sink {
 public:
  explicit EscapingSink(std::shared_ptr<spdlog::sinks::sink> inner) : inner_(std::move(inner)) {}

  void log(const spdlog::details::log_msg& message) override {
    const std::string_view payload(message.payload.data(), message.payload.size());
    const std::string shown = shown_text(payload);
    if (shown.size() == payload.size()) {  // nothing to escape: nothing copied
      inner_->log(message);
      return;
    }
    spdlog::details::log_msg escaped = message;
    escaped.payload = spdlog::string_view_t(shown.data(), shown.size());
    inner_->log(escaped);
  }
  void flush() override { inner_->flush(); }
  void set_pattern(const std::string& pattern) override { inner_->set_pattern(pattern); }
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override { inner_->set_formatter(std::move(formatter)); }

 private:
  std::shared_ptr<spdlog::sinks::sink> inner_;
};

}  // namespace

std::string shown_text(std::string_view text) {
  std::string shown;
  shown.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n') {
      shown += "\\n";
    } else if (byte == '\r') {
      shown += "\\r";
    } else if (byte == '\t') {
      shown += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      append_code(shown, byte);
    } else if (byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      append_code(shown, static_cast<unsigned char>(text[++i]));  // a C1 character, U+0080 to U+009F
    } else {
      shown.push_back(text[i]);
    }
  }
  return shown;
}

std::shared_ptr<spdlog::sinks::sink> escaping_sink(std::shared_ptr<spdlog::sinks::sink> inner) {
  return std::make_shared<EscapingSink>(std::move(inner));
}

}  // namespace claimrag::io
