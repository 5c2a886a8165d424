#pragma once
// Each subcommand lives in its own file and adds itself to the root application here.
// A subcommand parses its flags into an options struct and makes one library call.

#include <CLI/CLI.hpp>

namespace claimrag::cli {

void add_stats_command(CLI::App& root);
void add_index_command(CLI::App& root);
void add_bm25_statistics_command(CLI::App& root);
void add_retrieve_command(CLI::App& root);
void add_evaluate_command(CLI::App& root);
void add_gate_command(CLI::App& root);
void add_reproduce_command(CLI::App& root);
void add_fuse_command(CLI::App& root);
void add_rerank_command(CLI::App& root);
void add_extract_evidence_command(CLI::App& root);
void add_interrogate_command(CLI::App& root);
void add_verify_command(CLI::App& root);
void add_sufficiency_command(CLI::App& root);
void add_sufficiency_bench_command(CLI::App& root);
void add_ground_command(CLI::App& root);
void add_compare_abstention_command(CLI::App& root);
void add_predict_command(CLI::App& root);
void add_calibrate_command(CLI::App& root);
void add_merge_command(CLI::App& root);

}  // namespace claimrag::cli
