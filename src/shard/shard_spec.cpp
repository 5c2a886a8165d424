#include "claimrag/shard/shard_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "claimrag/error.hpp"

namespace claimrag::shard {
namespace {

/// A decimal number of at most 9 digits (no sign, no space): shard numbers are small, and a bound
/// keeps every sum below overflow.
std::optional<std::size_t> small_number(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// The pair K/N of `text` when it has that form, with K < N.
std::optional<ShardSpec> fraction(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const auto index = small_number(std::string_view(text).substr(0, slash));
  const auto count = small_number(std::string_view(text).substr(slash + 1));
  if (!index || !count) return std::nullopt;
  return ShardSpec{*index, *count};
}

std::size_t slurm_number(const Environment& environment, const char* name) {
  const char* value = environment(name);
  const auto number = value == nullptr ? std::nullopt : small_number(value);
  if (!number) {
    throw UsageError(std::string("--shard slurm: ") + name + (value == nullptr ? " is not set" : " is not a number: '" + std::string(value) + "'"));
  }
  return *number;
}

ShardSpec slurm_shard(const Environment& environment) {
  if (environment("SLURM_ARRAY_TASK_ID") == nullptr) {
    throw UsageError("--shard slurm: SLURM_ARRAY_TASK_ID is not set: run it as a task of a Slurm job array "
                     "(sbatch --array=0-N), or give --shard K/N");
  }
  const std::size_t id = slurm_number(environment, "SLURM_ARRAY_TASK_ID");
  const std::size_t min = slurm_number(environment, "SLURM_ARRAY_TASK_MIN");
  std::size_t count = 0;
  if (environment("SLURM_ARRAY_TASK_COUNT") != nullptr) {
    count = slurm_number(environment, "SLURM_ARRAY_TASK_COUNT");
  } else {
    const std::size_t max = slurm_number(environment, "SLURM_ARRAY_TASK_MAX");
    if (max < min) throw UsageError("--shard slurm: SLURM_ARRAY_TASK_MAX is below SLURM_ARRAY_TASK_MIN");
    count = max - min + 1;
  }
  // An array with gaps (--array=0,2,5) numbers its tasks by id, not by position: refused, as the
  // shards would not cover the input.
  if (id < min || id - min >= count) {
    throw UsageError("--shard slurm: task " + std::to_string(id) + " is outside its array (SLURM_ARRAY_TASK_MIN " +
                     std::to_string(min) + ", " + std::to_string(count) + " tasks): give the array as one range, --array=MIN-MAX");
  }
  return {id - min, count};
}

}  // namespace

std::string shard_text_problem(const std::string& text) {
  if (text == "slurm") return {};
  const auto spec = fraction(text);
  if (!spec) return "must be K/N (shard K of N, 0 <= K < N) or slurm, got '" + text + "'";
  if (spec->count == 0) return "the number of shards must be at least 1, got '" + text + "'";
  if (spec->index >= spec->count) {
    return "shard " + std::to_string(spec->index) + " of " + std::to_string(spec->count) + " does not exist: K counts from 0 to " +
           std::to_string(spec->count - 1);
  }
  return {};
}

ShardSpec parse_shard(const std::string& text, const Environment& environment) {
  if (const auto problem = shard_text_problem(text); !problem.empty()) throw UsageError("--shard: " + problem);
  if (text == "slurm") return slurm_shard(environment ? environment : Environment([](const char* name) { return std::getenv(name); }));
  return *fraction(text);
}

Block shard_block(std::size_t total, ShardSpec spec) {
  if (spec.count == 0 || spec.index >= spec.count) throw InternalError("shard_block: no shard " + std::to_string(spec.index) + " of " + std::to_string(spec.count));
  const std::size_t small = total / spec.count;
  const std::size_t larger = total % spec.count;  // the first `larger` blocks hold one more
  const std::size_t begin = spec.index * small + std::min(spec.index, larger);
  return {begin, begin + small + (spec.index < larger ? 1 : 0)};
}

}  // namespace claimrag::shard
