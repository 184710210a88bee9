// hearth::ChatTemplate: the public face of the interpreter in this folder.
#include "hearth/chat_template.h"

#include <ctime>
#include <new>

#include "chat/Interpreter.h"
#include "chat/JinjaError.h"
#include "chat/JsonCodec.h"
#include "chat/Parser.h"

namespace hearth {
namespace {

// The documented format for models without a template (docs/chat-templates.md).
constexpr std::string_view kFallbackSource = R"JINJA({{- bos_token -}}
{%- if tools -%}
    {{- "Tools: " + (tools | tojson) + "\n\n" -}}
{%- endif -%}
{%- for message in messages -%}
    {{- (message.role | string | capitalize) + ":" -}}
    {%- if message.content is string -%}
        {{- " " + message.content -}}
    {%- elif message.content is iterable and message.content is not mapping -%}
        {{- " " -}}
        {%- for part in message.content -%}
            {%- if part is mapping and part.text is string -%}{{- part.text -}}{%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if message.tool_calls is iterable and message.tool_calls is not string -%}
        {%- for call in message.tool_calls -%}
            {%- set function = call.function if call.function is defined else call -%}
            {{- "\nTool call: " + ({"name": function.name, "arguments": function.arguments} | tojson) -}}
        {%- endfor -%}
    {%- endif -%}
    {{- "\n\n" -}}
{%- endfor -%}
{%- if add_generation_prompt -%}
    {{- "Assistant:" -}}
{%- endif -%}
)JINJA";

std::tm nowFor(const ChatTemplateRenderOptions& options) {
    std::tm out{};
    if (options.fixedNow) {
        // Normalize, so that the weekday and day of the year match the date.
        std::tm t = *options.fixedNow;
        t.tm_isdst = 0;
        const std::time_t seconds = timegm(&t);
        gmtime_r(&seconds, &out);
        return out;
    }
    const std::time_t seconds = std::time(nullptr);
    localtime_r(&seconds, &out);
    return out;
}

}  // namespace

nlohmann::ordered_json ChatTemplateInputs::toContext() const {
    nlohmann::ordered_json c = nlohmann::ordered_json::object();
    c["messages"] = messages;
    c["tools"] = tools;
    c["documents"] = nullptr;
    c["add_generation_prompt"] = addGenerationPrompt;
    c["bos_token"] = bosToken;
    c["eos_token"] = eosToken;
    if (extra.is_object())
        for (auto it = extra.begin(); it != extra.end(); ++it) c[it.key()] = it.value();
    return c;
}

Result<ChatTemplate> ChatTemplate::parse(std::string_view source) {
    try {
        std::shared_ptr<const chat::Program> program = chat::Parser::parse(source);
        return ChatTemplate(std::move(program), std::make_shared<const std::string>(source));
    } catch (const chat::JinjaError& e) {
        return makeError(ErrorCode::TemplateError, "chat template does not parse: " + e.describe());
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::OutOfMemory, "out of memory while parsing the chat template");
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string("chat template parser: ") + e.what());
    }
}

const ChatTemplate& ChatTemplate::fallback() {
    static const ChatTemplate t = std::move(parse(kFallbackSource).value());
    return t;
}

std::string_view ChatTemplate::fallbackSource() { return kFallbackSource; }

Result<std::string> ChatTemplate::render(const nlohmann::ordered_json& context, const ChatTemplateRenderOptions& options) const {
    if (!context.is_object()) return makeError(ErrorCode::InvalidArgument, "the chat template context must be a JSON object");
    try {
        chat::Interpreter in(*program_, nowFor(options));
        for (auto it = context.begin(); it != context.end(); ++it) {
            const int sym = in.symbolOf(it.key());
            if (sym >= 0) in.root()->set(sym, chat::json::fromJson(it.value()));
        }
        return in.render();
    } catch (const chat::JinjaError& e) {
        return makeError(ErrorCode::TemplateError, "chat template: " + e.describe());
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::OutOfMemory, "out of memory while rendering the chat template");
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string("chat template renderer: ") + e.what());
    }
}

Result<std::string> ChatTemplate::render(const nlohmann::json& context, const ChatTemplateRenderOptions& options) const {
    try {
        return render(nlohmann::ordered_json::parse(context.dump()), options);
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorCode::InvalidArgument, std::string("chat template context: ") + e.what());
    }
}

}  // namespace hearth
