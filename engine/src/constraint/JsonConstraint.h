#pragma once
// Per-request constrained decoding for response_format json_object / json_schema: which next tokens
// keep the output a prefix of a document that parses and matches the schema.
//
// allowedTokens() walks the vocabulary trie with the JSON automaton (one automaton step per trie
// edge, pruned as soon as a byte is rejected); inside strings it starts from the precomputed mask of
// plain tokens and walks only the others, so a 150k vocabulary costs about as much as its tokens
// that contain quotes, backslashes, control bytes or partial UTF-8.
//
// Invariants: the accepted tokens' texts, concatenated, are always a valid prefix (accept() refuses
// anything else and leaves the state unchanged); end-of-generation tokens are allowed exactly when
// the document is complete; the mask is never empty (should the automaton ever reach a state with
// no continuation, e.g. at the nesting cap, end-of-generation is allowed so the request can end).
// Not thread-safe: one request, one thread (the engine thread).

#include <memory>
#include <vector>

#include "constraint/CompiledSchema.h"
#include "constraint/JsonMachine.h"
#include "constraint/VocabIndex.h"
#include "hearth/engine.h"

namespace hearth::constraint {

class JsonConstraint {
public:
    static Result<std::unique_ptr<JsonConstraint>> create(const OutputConstraint& spec, const Tokenizer& tokenizer);
    // Compiles the schema only (json_object needs nothing); used to reject bad schemas up front.
    static Result<std::shared_ptr<const CompiledSchema>> compile(const OutputConstraint& spec);

    JsonConstraint(std::shared_ptr<const CompiledSchema> schema, std::shared_ptr<const VocabIndex> vocab);

    // mask is resized to the vocabulary; mask[id] is true for the tokens that may come next.
    void allowedTokens(std::vector<bool>& mask);
    // Advances by one generated token. False (state unchanged) when the token was not allowed.
    bool accept(TokenId id);
    // The output so far is a whole valid document.
    bool isComplete() const { return ended_ || machine_.complete(); }
    // Nothing may follow: the top-level value closed, or an end-of-generation token was accepted.
    bool isFinished() const { return ended_ || machine_.finished(); }

private:
    void walk(const ByteTrie& trie, uint32_t node, size_t depth, std::vector<bool>& mask, size_t& allowed);
    bool isEndToken(TokenId id) const;

    std::shared_ptr<const CompiledSchema> schema_;
    std::shared_ptr<const VocabIndex> vocab_;
    JsonMachine machine_;
    std::vector<JsonMachine> states_;  // states_[d]: the automaton after d bytes of the trie path
    bool ended_ = false;
};

}  // namespace hearth::constraint
