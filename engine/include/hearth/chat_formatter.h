#pragma once
// One place where a conversation becomes a model's prompt tokens, shared by the chat window, the
// API server and hearth-cli: the model's chat template (or a user's override, or the documented
// fallback transcript when the model has none) rendered with the conversation, special-token text
// in the result parsed as special tokens, BOS added only when the rendered text does not already
// begin with it, and the stop conditions that end the assistant's turn.
//
// Invariants: a ChatFormatter is immutable after create() (the template is parsed once) and safe
// to use from several threads; format() never throws.

#include <memory>
#include <string>
#include <vector>

#include "hearth/chat_template.h"
#include "hearth/result.h"
#include "hearth/tokenizer.h"

namespace hearth {

struct ChatPrompt {
    std::string text;                    // the rendered prompt
    std::vector<TokenId> tokens;         // what to submit
    std::vector<std::string> stopStrings;  // extra stops (the fallback transcript's next-speaker markers)
    std::vector<TokenId> stopTokens;       // end-of-turn tokens (the tokenizer's end-of-generation set)
};

class ChatFormatter {
public:
    // templateSource empty: the fallback transcript.
    static Result<ChatFormatter> create(const std::string& templateSource, std::shared_ptr<const Tokenizer> tokenizer);

    // inputs.bosToken / eosToken default to the tokenizer's when empty.
    Result<ChatPrompt> format(ChatTemplateInputs inputs, const ChatTemplateRenderOptions& options = {}) const;
    bool usesFallback() const { return fallback_; }
    const ChatTemplate& chatTemplate() const { return template_; }

private:
    ChatFormatter(ChatTemplate t, std::shared_ptr<const Tokenizer> tok, bool fallback)
        : template_(std::move(t)), tok_(std::move(tok)), fallback_(fallback) {}
    ChatTemplate template_;
    std::shared_ptr<const Tokenizer> tok_;
    bool fallback_;
};

}  // namespace hearth
