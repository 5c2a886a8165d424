#pragma once
// Lexical features of every sentence of a (claim, document) pair, what the rationale selector
// reads. TF-IDF vectors come from a vectorizer fitted on the corpus's abstracts.
//
// Per sentence i of n (columns in this order, names in sentence_feature_names()):
//   cosine          TF-IDF cosine(claim, sentence)
//   jaccard         Jaccard overlap of the token sets
//   cosine_gap      cosine − the document's highest sentence cosine (≤ 0)
//   inverse_rank    1 / rank of the sentence by cosine within the document (ties: earlier first)
//   position        i / (n − 1) (0 for a one-sentence document)
//   first           1 for the first sentence
//   coverage        share of the claim's distinct tokens found in the sentence
//   length          ln(1 + min(tokens of the sentence, 128))
//   document_max    the document's highest sentence cosine (same for every sentence)
// Every column is bounded whatever the text's length: the length is capped, the rest are shares,
// cosines and ranks in [-1, 1]. There is no column of the document's size: sentences appended to
// the evidence moved every sentence's score through it, and with them the verdict.

#include <string>
#include <memory>
#include <vector>

#include "claimrag/linear/softmax_regression.hpp"
#include "claimrag/text/token_set.hpp"
#include "claimrag/tfidf/sparse_vector.hpp"
#include "claimrag/tfidf/vectorizer.hpp"

namespace claimrag::verification {

/// The feature names, in column order.
const std::vector<std::string>& sentence_feature_names();

/// A claim as the features read it.
struct ClaimText {
  tfidf::SparseVector vector;
  text::TokenSet tokens;
};

/// What a document's sentences are to the features whatever the claim: read once per document
/// and shared by every claim judged against it.
struct SentenceTexts {
  std::vector<tfidf::SparseVector> vectors;
  std::vector<text::TokenSet> tokens;
};

/// The sentences of one document as the features read them against one claim.
struct DocumentText {
  std::shared_ptr<const SentenceTexts> sentences;
  std::vector<double> cosines;  ///< to the claim
  [[nodiscard]] const text::TokenSet& tokens(std::size_t s) const { return sentences->tokens[s]; }
};

ClaimText read_claim(const tfidf::TfidfVectorizer& vectorizer, const std::string& claim);
SentenceTexts read_sentences(const tfidf::TfidfVectorizer& vectorizer, const std::vector<std::string>& sentences);
/// `sentences` (not null) against `claim`.
DocumentText relate(const ClaimText& claim, std::shared_ptr<const SentenceTexts> sentences);
/// read_sentences then relate.
DocumentText read_document(const tfidf::TfidfVectorizer& vectorizer, const ClaimText& claim,
                           const std::vector<std::string>& sentences);

/// n × sentence_feature_names().size(); n = sentences of the document (0 rows for none).
linear::RowMatrixXd sentence_features(const ClaimText& claim, const DocumentText& document);

/// Share of `claim`'s tokens found in the union of `parts`' tokens (0 for a claim without tokens).
double claim_coverage(const text::TokenSet& claim, const std::vector<const text::TokenSet*>& parts);

}  // namespace claimrag::verification
