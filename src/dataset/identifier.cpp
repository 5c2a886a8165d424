#include "claimrag/dataset/identifier.hpp"

namespace claimrag::dataset {
namespace {

const char* whitespace_name(char c) {
  switch (c) {
    case ' ': return "a space";
    case '\t': return "a tab";
    case '\n': return "a newline";
    case '\r': return "a carriage return";
    case '\v': return "a vertical tab";
    case '\f': return "a form feed";
    default: return nullptr;
  }
}

}  // namespace

std::string identifier_problem(std::string_view id) {
  if (id.empty()) return "is empty";
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (const char* name = whitespace_name(id[i])) {
      return std::string("contains ") + name + " (byte " + std::to_string(i + 1) +
             "): ids must be one word, since runs and tables separate fields by whitespace";
    }
  }
  return "";
}

}  // namespace claimrag::dataset
