#include "constraint/JsonConstraint.h"

#include <algorithm>

#include "constraint/SchemaCompiler.h"
#include "hearth/output_constraint.h"

namespace hearth {

Status validateOutputConstraint(const OutputConstraint& constraint) {
    if (constraint.kind == OutputConstraint::Kind::None) return Status::success();
    auto compiled = constraint::JsonConstraint::compile(constraint);
    if (!compiled) return compiled.error();
    return Status::success();
}

}  // namespace hearth

namespace hearth::constraint {

Result<std::shared_ptr<const CompiledSchema>> JsonConstraint::compile(const OutputConstraint& spec) {
    switch (spec.kind) {
    case OutputConstraint::Kind::JsonObject:
        return std::make_shared<const CompiledSchema>(SchemaCompiler::anyObject());
    case OutputConstraint::Kind::JsonSchema: {
        auto schema = SchemaCompiler::compile(spec.jsonSchema);
        if (!schema) return schema.error();
        return std::make_shared<const CompiledSchema>(std::move(*schema));
    }
    case OutputConstraint::Kind::None: break;
    }
    return makeError(ErrorCode::InvalidArgument, "no output constraint to compile");
}

Result<std::unique_ptr<JsonConstraint>> JsonConstraint::create(const OutputConstraint& spec, const Tokenizer& tokenizer) {
    auto schema = compile(spec);
    if (!schema) return schema.error();
    return std::make_unique<JsonConstraint>(std::move(*schema), VocabIndex::forTokenizer(tokenizer));
}

JsonConstraint::JsonConstraint(std::shared_ptr<const CompiledSchema> schema, std::shared_ptr<const VocabIndex> vocab)
    : schema_(std::move(schema)), vocab_(std::move(vocab)), machine_(*schema_) {
    states_.reserve(vocab_->all().maxDepth() + 1);
    for (size_t i = 0; i <= vocab_->all().maxDepth(); ++i) states_.emplace_back(*schema_);
}

bool JsonConstraint::isEndToken(TokenId id) const {
    const auto& ends = vocab_->endTokens();
    return std::find(ends.begin(), ends.end(), id) != ends.end();
}

void JsonConstraint::walk(const ByteTrie& trie, uint32_t node, size_t depth, std::vector<bool>& mask, size_t& allowed) {
    const auto& nodes = trie.nodes();
    const auto& tokens = trie.tokens();
    for (uint32_t child = nodes[node].firstChild; child != ByteTrie::kNone; child = nodes[child].nextSibling) {
        JsonMachine& state = states_[depth + 1];
        state.copyFrom(states_[depth]);
        if (!state.feed(nodes[child].byte)) continue;
        for (uint32_t t = nodes[child].tokensBegin; t < nodes[child].tokensEnd; ++t) {
            mask[static_cast<size_t>(tokens[t])] = true;
            ++allowed;
        }
        if (nodes[child].firstChild != ByteTrie::kNone && !state.finished()) walk(trie, child, depth + 1, mask, allowed);
    }
}

void JsonConstraint::allowedTokens(std::vector<bool>& mask) {
    const auto n = static_cast<size_t>(vocab_->vocabSize());
    size_t allowed = 0;
    if (isFinished()) {
        mask.assign(n, false);
    } else {
        int remaining = 0;
        const ByteTrie* trie = &vocab_->all();
        if (machine_.inPlainText(remaining)) {
            if (remaining == kUnbounded) {
                mask = vocab_->plainMask();
                allowed = vocab_->plainTokens().size();
            } else {
                mask.assign(n, false);
                for (TokenId id : vocab_->plainTokens())
                    if (vocab_->plainChars()[static_cast<size_t>(id)] <= remaining) {
                        mask[static_cast<size_t>(id)] = true;
                        ++allowed;
                    }
            }
            trie = &vocab_->nonPlain();
        } else {
            mask.assign(n, false);
        }
        states_[0].copyFrom(machine_);
        walk(*trie, 0, 0, mask, allowed);
    }
    if (isComplete() || allowed == 0) {
        for (TokenId id : vocab_->endTokens())
            if (id >= 0 && static_cast<size_t>(id) < n) mask[static_cast<size_t>(id)] = true;
    }
}

bool JsonConstraint::accept(TokenId id) {
    if (ended_) return false;
    if (isEndToken(id)) {
        if (!machine_.complete()) return false;
        ended_ = true;
        return true;
    }
    if (!vocab_->usable(id) || machine_.finished()) return false;
    JsonMachine& scratch = states_[0];
    scratch.copyFrom(machine_);
    for (char c : vocab_->pieces()[static_cast<size_t>(id)])
        if (!scratch.feed(static_cast<uint8_t>(c))) return false;
    machine_.copyFrom(scratch);
    return true;
}

}  // namespace hearth::constraint
