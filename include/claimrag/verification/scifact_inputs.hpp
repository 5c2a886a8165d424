#pragma once
// SciFact claims as verification inputs with their gold answers, in the two settings the task is
// scored in:
//  - oracle: a claim with evidence gets its gold evidence abstracts; a claim without evidence
//    (NOT ENOUGH INFO) gets its cited abstracts (each once, in citation order), each NEI;
//  - open: the top `k` abstracts of a retrieval run over the whole corpus, each gold-labelled as
//    the evidence says (NEI for every abstract without evidence for the claim).
// Sentences are the `abstract` array of original/corpus.jsonl, so indices are SciFact's.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

/// The gold answer for one (claim, document) pair.
struct GoldDocument {
  Label label = Label::not_enough_info;
  std::vector<std::vector<std::size_t>> rationale_sets;  ///< empty for NEI
};

/// A claim, the documents to judge, and the gold answer per document (parallel to documents).
struct LabelledInput {
  VerificationInput input;
  std::vector<GoldDocument> gold;
  /// Every document the claim cites or has evidence in: what ties claims into families.
  std::vector<std::string> family_doc_ids;
  /// Every gold evidence document of the claim, retrieved or not: the metrics' recall counts them.
  std::map<std::string, GoldDocument> evidence;
};

/// Abstracts by doc id.
using AbstractIndex = std::map<std::string, const dataset::Abstract*>;
AbstractIndex index_abstracts(const std::vector<dataset::Abstract>& abstracts);

/// The gold answer of `claim` for `doc_id`: its evidence's label (all of a document's sets share
/// one label in SciFact; DataError naming the claim otherwise) and rationale sets, else NEI.
GoldDocument gold_document(const dataset::Claim& claim, const std::string& doc_id);

/// The oracle setting. A cited or evidence document missing from `abstracts` is a DataError.
std::vector<LabelledInput> oracle_inputs(const std::vector<dataset::Claim>& claims, const AbstractIndex& abstracts);

/// The open setting: the first `k` documents of each claim's ranking in `run` (rank and score
/// kept). A claim without a ranking gets no documents (its verdict will say why); a retrieved
/// document missing from `abstracts` is a DataError.
std::vector<LabelledInput> open_inputs(const std::vector<dataset::Claim>& claims, const AbstractIndex& abstracts,
                                       const run::Run& run, std::size_t k);

/// The free-text setting (VerifierSetting::free_text): oracle_inputs, then for each claim two more
/// documents labelled NOT_ENOUGH_INFO, so that topic mismatch is learned as NEI: the best-ranked
/// abstract of `neighbours` (BM25 over the corpus) that the claim neither cites nor has evidence
/// in (same topic, no evidence), and one drawn at random from `abstracts` (std::mt19937_64
/// seeded with `seed`, one draw modulo the count per try, claims in order) that is neither cited
/// nor that neighbour. The added documents do not join the claim's family: they are no citation.
std::vector<LabelledInput> free_text_inputs(const std::vector<dataset::Claim>& claims,
                                            const std::vector<dataset::Abstract>& abstracts, const AbstractIndex& index,
                                            const run::Run& neighbours, std::uint64_t seed);

/// Passages of a few sentences, the shape users' evidence often has, added to each claim of
/// `items` (free-text training inputs, VerificationOptions::passages): for every cited document
/// with a rationale, its first rationale set alone as a document with the same label (its
/// sentences in order, all of them the rationale), and for every cited document with a sentence
/// outside every rationale, one such sentence alone as NOT_ENOUGH_INFO (the same topic without
/// the evidence; drawn with std::mt19937_64 seeded with `seed`, claims in order). An added
/// document's id is the abstract's id with "#evidence" or "#other" appended; an evidence passage
/// joins the claim's gold evidence (the metrics count it); neither joins its family.
void add_passages(std::vector<LabelledInput>& items, std::uint64_t seed);

/// Short NOT_ENOUGH_INFO passages, so that a few sentences off the claim's topic are learnt as
/// NOT_ENOUGH_INFO as whole abstracts are (free-text training inputs,
/// VerificationOptions::unrelated_passages): for every document of a claim outside its family (the
/// free-text neighbour and unrelated abstracts, not the passages add_passages cut from the claim's
/// own abstracts), a run of 1 to 3 consecutive sentences ("#unrelated" appended to its id), and the first rationale set of another claim's first evidence document,
/// an evidence-shaped passage about something else ("#foreign"; drawn again when it is in the
/// claim's family, up to 8 tries). Draws use std::mt19937_64 seeded with `seed`, claims in order.
void add_unrelated_passages(std::vector<LabelledInput>& items, std::uint64_t seed);

/// Per abstract, in order, title + " " + its sentences joined by one space (the BEIR layout's
/// text): what the verifier's TF-IDF vectorizer is fitted on (VerifierTrainingData::corpus_texts).
std::vector<std::string> corpus_texts(const std::vector<dataset::Abstract>& abstracts);

/// BM25 (k1, b) over title + " " + the sentences joined by one space (the BEIR layout's text) of
/// every abstract, top `depth` per claim; ties keep corpus order. The run's tag is "bm25".
run::Run bm25_run(const std::vector<dataset::Abstract>& abstracts, const std::vector<dataset::Claim>& claims,
                  double k1, double b, std::size_t depth);

}  // namespace claimrag::verification
