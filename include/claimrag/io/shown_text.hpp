#pragma once
// Text from outside (a server's reply, a file's contents, a tensor name, an id) as it is shown on
// stderr: its control characters escaped, so that it can neither forge a log line (a newline
// followed by "[12:00:00] info …") nor drive the terminal (ESC sequences, a CSI, a carriage return
// that overwrites the line).
//
// Every log line claimrag writes passes through escaping_sink(), which applies shown_text() to
// the whole message, so that no log call can forget it; errors are log lines too.

#include <memory>
#include <string>
#include <string_view>

#include <spdlog/sinks/sink.h>

namespace claimrag::io {

/// `text` with its control characters shown as in JSON: "\n", "\r", "\t", and "\u001b" for the
/// other C0 characters, DEL and the C1 characters (U+0080 to U+009F, a CSI among them). Every
/// other byte is kept, so UTF-8 text reads as written.
std::string shown_text(std::string_view text);

/// A sink that writes each message through shown_text() to `inner`.
std::shared_ptr<spdlog::sinks::sink> escaping_sink(std::shared_ptr<spdlog::sinks::sink> inner);

}  // namespace claimrag::io
