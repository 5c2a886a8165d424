// The documentation and the program agree on flags: every `--flag` the docs show after
// `claimrag SUBCOMMAND` (in a code block, or an inline code span starting with the subcommand's
// name) exists on that subcommand, and every flag of every subcommand appears in its synopsis in
// docs/commands.md. The flags are read from the program's own --help. The research log
// (docs/research/) records history and is not checked.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

const fs::path kSource = CLAIMRAG_SOURCE_DIR;
/// Flags of the program itself, accepted before any subcommand.
const std::set<std::string> kGlobalFlags{"--help", "--quiet", "--verbose", "--version"};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::set<std::string> flags_in(const std::string& text) {
  static const std::regex flag(R"((^|[^A-Za-z0-9-])(--[a-z][a-z0-9-]*))");
  std::set<std::string> flags;
  for (std::sregex_iterator it(text.begin(), text.end(), flag), end; it != end; ++it) flags.insert((*it)[2]);
  return flags;
}

/// Every subcommand and its flags, from `claimrag --help` and `claimrag S --help`.
std::map<std::string, std::set<std::string>> program_flags(const fs::path& scratch) {
  std::map<std::string, std::set<std::string>> flags;
  const auto root = run_claimrag("--help", scratch);
  static const std::regex listed(R"(^  ([a-z][a-z-]*[a-z])  +\S.*$)");
  for (const auto& line : lines_of(root.out)) {
    std::smatch match;
    if (!std::regex_match(line, match, listed)) continue;
    const std::string name = match[1];
    const auto help = run_claimrag(name + " --help", scratch);
    if (help.exit_code != 0) continue;  // not a subcommand
    static const std::regex option(R"(^\s+(-[a-z], )?(--[a-z][a-z0-9-]*)\b.*$)");
    for (const auto& help_line : lines_of(help.out)) {
      std::smatch found;
      if (std::regex_match(help_line, found, option)) flags[name].insert(found[2]);
    }
    flags[name].erase("--help");
  }
  return flags;
}

/// The pages a user reads.
std::vector<fs::path> user_pages() {
  std::vector<fs::path> pages{kSource / "README.md"};
  for (const auto& entry : fs::directory_iterator(kSource / "docs")) {
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  return pages;
}

/// The commands a page shows: each code block's command lines (indented lines and lines after a
/// trailing backslash continue the command above), and each inline code span.
std::vector<std::string> shown_commands(const std::string& page) {
  std::vector<std::string> commands;
  bool in_block = false;
  bool continues = false;
  for (const auto& line : lines_of(page)) {
    if (line.rfind("```", 0) == 0) {
      in_block = !in_block;
      continues = false;
      continue;
    }
    if (in_block) {
      const bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
      if ((continues || indented) && !commands.empty()) {
        commands.back() += " " + line;
      } else {
        commands.push_back(line);
      }
      continues = !line.empty() && line.back() == '\\';
      continue;
    }
    static const std::regex span("`([^`]+)`");
    for (std::sregex_iterator it(line.begin(), line.end(), span), end; it != end; ++it) commands.push_back((*it)[1]);
  }
  return commands;
}

class CliDocsFlags : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = fs::temp_directory_path() / ("claimrag_CliDocsFlags_" + std::to_string(::getpid()));
    fs::create_directories(scratch_);
    flags_ = program_flags(scratch_);
  }
  static void TearDownTestSuite() { fs::remove_all(scratch_); }
  static inline fs::path scratch_;
  static inline std::map<std::string, std::set<std::string>> flags_;
};

TEST_F(CliDocsFlags, TheProgramListsItsSubcommandsAndTheirFlags) {
  for (const char* name : {"reproduce", "verify", "ground", "sufficiency", "interrogate", "gate", "evaluate"}) {
    ASSERT_TRUE(flags_.count(name)) << name;
  }
  EXPECT_TRUE(flags_.at("verify").count("--pairs"));
}

TEST_F(CliDocsFlags, EveryFlagTheDocsShowExistsOnTheSubcommandTheyShowItFor) {
  // A command: "claimrag S ..." or "build/claimrag S ...", or a span starting with "S --".
  static const std::regex command(R"((^|.*\bclaimrag(\s+--[a-z]+)*\s+)([a-z][a-z-]*[a-z])(\s.*|$))");
  std::size_t checked = 0;
  for (const auto& page : user_pages()) {
    for (const auto& shown : shown_commands(slurp(page))) {
      std::smatch match;
      if (!std::regex_match(shown, match, command)) continue;
      const std::string name = match[3];
      const bool after_claimrag = std::string(match[1]).find("claimrag") != std::string::npos;
      if (!flags_.count(name) || (!after_claimrag && std::string(match[4]).find("--") == std::string::npos)) continue;
      // Only what follows the subcommand up to a pipe or another command is its flags.
      std::string rest = match[4];
      for (const char* stop : {" | ", " && ", "; ", " > "}) rest = rest.substr(0, rest.find(stop));
      for (const auto& flag : flags_in(rest)) {
        ++checked;
        EXPECT_TRUE(flags_.at(name).count(flag) || kGlobalFlags.count(flag))
            << page.filename().string() << ": `" << shown << "` names " << flag << ", which `claimrag " << name
            << "` does not have";
      }
    }
  }
  EXPECT_GT(checked, 50u);  // the pages show well over a hundred
}

TEST_F(CliDocsFlags, EverySubcommandFlagIsInItsSynopsisInTheCommandReference) {
  // The synopsis: the code block's lines "claimrag S ..." and the indented lines under them.
  std::map<std::string, std::string> synopsis;
  for (const auto& shown : shown_commands(slurp(kSource / "docs/commands.md"))) {
    static const std::regex line(R"(^claimrag\s+([a-z][a-z-]*[a-z])(\s.*)?$)");
    std::smatch match;
    if (std::regex_match(shown, match, line)) synopsis[match[1]] += " " + std::string(match[2]);
  }
  for (const auto& [name, flags] : flags_) {
    ASSERT_TRUE(synopsis.count(name)) << "docs/commands.md has no synopsis of " << name;
    const auto documented = flags_in(synopsis.at(name));
    for (const auto& flag : flags) {
      EXPECT_TRUE(documented.count(flag)) << "docs/commands.md: the synopsis of " << name << " lacks " << flag;
    }
  }
}

}  // namespace
