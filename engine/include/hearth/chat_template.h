#pragma once
// Chat templates: turn a conversation into the prompt text a model was trained on, with the Jinja
// template its GGUF file carries (tokenizer.chat_template) or the one a user supplies.
//
// Semantics are those of Hugging Face transformers' apply_chat_template: Python's jinja2 in an
// ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True) with the loopcontrols
// extension and the {% generation %} tag; tojson is json.dumps(x, ensure_ascii=False, indent=...)
// (Python's ", " / ": " separators, key order kept); raise_exception(message) fails the render
// with that message; strftime_now(format) formats the current local time. Values print as Python
// prints them (True, None, 1.0, ['a', 'b']). A construct this interpreter does not implement fails
// with an error naming it and its line and column; it never renders something else instead.
// docs/chat-templates.md lists what is supported.
//
// Invariants: a ChatTemplate is immutable after parse() and cheap to copy (copies share the parsed
// tree); render() may be called from several threads at once; render() never throws.

#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "hearth/result.h"

namespace hearth {

namespace chat {
struct Program;
}

struct ChatTemplateRenderOptions {
    // strftime_now() formats this broken-down time (fields tm_year..tm_sec; the weekday and day of
    // the year are derived) instead of the current local time: reproducible output for tests.
    std::optional<std::tm> fixedNow;
};

// What transformers passes to a template, as one JSON object (see toContext()).
struct ChatTemplateInputs {
    // [{"role": "user", "content": "..."}, ...]; content is a string or a list of parts such as
    // {"type": "text", "text": "..."}; assistant messages may carry "tool_calls":
    // [{"id": ..., "type": "function", "function": {"name": ..., "arguments": {...}}}], tool
    // messages "tool_call_id" and "name".
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    // OpenAI-style tool definitions, or null: then the template sees tools = none, as
    // transformers passes it.
    nlohmann::ordered_json tools;
    bool addGenerationPrompt = true;
    std::string bosToken;
    std::string eosToken;
    // More variables (an object): enable_thinking, reasoning_effort, ... They override the above.
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();

    // {"messages", "tools", "documents": null, "add_generation_prompt", "bos_token", "eos_token", ...extra}.
    nlohmann::ordered_json toContext() const;
};

class ChatTemplate {
public:
    // Parses Jinja source. Errors (ErrorCode::TemplateError) name the problem and its position.
    static Result<ChatTemplate> parse(std::string_view source);

    // The template for models without one: a plain "Role: content" transcript (see
    // fallbackSource() and docs/chat-templates.md):
    //   {bos_token}System: ...\n\nUser: ...\n\nAssistant: ...\n\n ... Assistant:
    // Tool definitions and tool calls appear as JSON lines; tool results as "Tool: ...".
    static const ChatTemplate& fallback();
    static std::string_view fallbackSource();

    // Renders with a context object: its keys become the template's variables (messages,
    // add_generation_prompt, tools, bos_token, eos_token, extra keyword variables). JSON objects
    // keep their key order only as nlohmann::ordered_json; the nlohmann::json overload sorts them.
    Result<std::string> render(const nlohmann::ordered_json& context, const ChatTemplateRenderOptions& options = {}) const;
    Result<std::string> render(const nlohmann::json& context, const ChatTemplateRenderOptions& options = {}) const;

    const std::string& source() const { return *source_; }

private:
    ChatTemplate(std::shared_ptr<const chat::Program> program, std::shared_ptr<const std::string> source)
        : program_(std::move(program)), source_(std::move(source)) {}

    std::shared_ptr<const chat::Program> program_;
    std::shared_ptr<const std::string> source_;
};

}  // namespace hearth
