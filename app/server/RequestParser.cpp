#include "server/RequestParser.h"

#include <climits>

#include "hearth/output_constraint.h"
#include "server/FieldReader.h"

namespace hearth::app::server {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr int64_t kMaxTokenLimit = INT32_MAX;

std::optional<ApiError> readSampling(FieldReader& f, CommonParams& p) {
    SamplingParams& s = p.sampling;
    if (auto v = f.number("temperature", 0.0, 2.0)) s.temperature = static_cast<float>(*v);
    if (auto v = f.number("top_p", 0.0, 1.0)) {
        if (*v <= 0.0) s.temperature = 0.0f;  // nothing but the top token survives: greedy
        else s.topP = static_cast<float>(*v);
    }
    if (auto v = f.integer("top_k", 0, 1 << 20)) s.topK = static_cast<int>(*v);
    if (auto v = f.number("min_p", 0.0, 1.0)) s.minP = static_cast<float>(*v);
    if (auto v = f.number("frequency_penalty", -2.0, 2.0)) s.frequencyPenalty = static_cast<float>(*v);
    if (auto v = f.number("presence_penalty", -2.0, 2.0)) s.presencePenalty = static_cast<float>(*v);
    if (auto v = f.number("repeat_penalty", 0.0, 10.0)) s.repeatPenalty = static_cast<float>(*v);
    if (auto v = f.integer("repeat_last_n", -1, 1 << 20)) s.repeatLastN = static_cast<int>(*v);
    if (auto v = f.integer("seed", INT64_MIN, INT64_MAX)) {
        s.seed = static_cast<uint64_t>(*v);
        p.seeded = true;
    }
    if (auto v = f.stringList("stop", kMaxStopStrings)) p.stop = std::move(*v);
    if (!f.ok()) return f.error();
    return std::nullopt;
}

std::optional<ApiError> readConstraintSchema(const json& schema, const std::string& param, OutputConstraint& c) {
    c.kind = OutputConstraint::Kind::JsonSchema;
    c.jsonSchema = schema.dump();
    if (Status st = validateOutputConstraint(c); !st.ok())
        return ApiError::badRequest(st.error().message, param, "invalid_schema");
    return std::nullopt;
}

std::optional<ApiError> readResponseFormat(FieldReader& f, OutputConstraint& c) {
    const json* rf = f.raw("response_format");
    if (!rf) return std::nullopt;
    if (!rf->is_object()) return ApiError::badRequest("'response_format' must be an object", "response_format", "invalid_type");
    FieldReader r(*rf, "response_format.");
    const auto type = r.string("type");
    if (!r.ok()) return r.error();
    if (!type || *type == "text") return std::nullopt;
    if (*type == "json_object") {
        c.kind = OutputConstraint::Kind::JsonObject;
        return std::nullopt;
    }
    if (*type != "json_schema")
        return ApiError::badRequest("'response_format.type' must be text, json_object or json_schema", "response_format.type");
    const json* js = r.raw("json_schema");
    if (!js || !js->is_object())
        return ApiError::badRequest("'response_format.json_schema' must be an object with a 'schema'", "response_format.json_schema");
    const auto it = js->find("schema");
    if (it == js->end() || !(it->is_object() || it->is_boolean()))
        return ApiError::badRequest("'response_format.json_schema.schema' must be a JSON Schema object",
                                    "response_format.json_schema.schema");
    return readConstraintSchema(*it, "response_format.json_schema.schema", c);
}

// Fields OpenAI accepts that would change the result in ways this server does not implement.
std::optional<ApiError> refuseUnsupported(const FieldReader& f, int n) {
    auto refuse = [](const std::string& name, const std::string& why) {
        return ApiError::badRequest("'" + name + "' is not supported" + why, name, "unsupported_parameter");
    };
    if (const json* v = f.raw("logit_bias"); v && !(v->is_object() && v->empty())) return refuse("logit_bias", "");
    if (const json* v = f.raw("suffix"); v && !(v->is_string() && v->get<std::string>().empty())) return refuse("suffix", "");
    if (const json* v = f.raw("best_of"); v && !(v->is_number_integer() && v->get<int64_t>() == n))
        return refuse("best_of", " (other than best_of == n)");
    for (const char* name : {"functions", "function_call", "audio", "prediction"})
        if (f.has(name)) return refuse(name, "");
    if (const json* v = f.raw("modalities"); v && v->is_array())
        for (const auto& m : *v)
            if (m != "text") return refuse("modalities", " (text only)");
    if (const json* v = f.raw("tool_choice"); v && !(v->is_string() && (*v == "auto" || *v == "none")))
        return refuse("tool_choice", " (only \"auto\" and \"none\"; tool calls are not parsed out of the output)");
    return std::nullopt;
}

std::optional<ApiError> readCommon(FieldReader& f, CommonParams& p, bool ollama) {
    if (auto m = f.string("model")) p.model = *m;
    if (auto v = f.boolean("stream")) p.stream = *v;
    if (!ollama) {
        if (auto v = f.integer("n", 1, kMaxChoices)) p.n = static_cast<int>(*v);
        if (auto v = f.integer("max_tokens", 1, kMaxTokenLimit)) p.maxTokens = *v;
        if (auto v = f.integer("max_completion_tokens", 1, kMaxTokenLimit)) p.maxTokens = *v;
        if (auto v = f.string("user")) p.user = *v;
        if (auto v = f.boolean("ignore_eos")) p.ignoreEos = *v;
        if (const json* so = f.raw("stream_options")) {
            if (!so->is_object()) {
                f.failType("stream_options", "an object");
            } else {
                FieldReader s(*so, "stream_options.");
                if (auto v = s.boolean("include_usage")) p.includeUsage = *v;
                if (!s.ok()) return s.error();
            }
        }
        if (!f.ok()) return f.error();
        if (auto e = readSampling(f, p)) return e;
        if (auto e = refuseUnsupported(f, p.n)) return e;
        if (auto e = readResponseFormat(f, p.constraint)) return e;
    }
    if (!f.ok()) return f.error();
    return std::nullopt;
}

// One OpenAI message in the shape chat templates expect (see hearth/chat_template.h).
std::optional<ApiError> normalizeMessage(const json& m, size_t index, ordered_json& out) {
    const std::string where = "messages[" + std::to_string(index) + "]";
    if (!m.is_object()) return ApiError::badRequest("'" + where + "' must be an object", where, "invalid_type");
    FieldReader f(m, where + ".");
    const auto role = f.string("role");
    if (!f.ok()) return f.error();
    if (!role) return ApiError::badRequest("'" + where + ".role' is required", where + ".role", "missing_required_parameter");
    static const std::vector<std::string> roles = {"system", "developer", "user", "assistant", "tool", "function"};
    if (std::find(roles.begin(), roles.end(), *role) == roles.end())
        return ApiError::badRequest("'" + where + ".role' must be one of system, developer, user, assistant, tool",
                                    where + ".role");
    ordered_json msg = ordered_json::object();
    msg["role"] = *role == "developer" ? "system" : (*role == "function" ? "tool" : *role);
    const json* content = f.raw("content");
    std::string text;
    if (!content) {
        if (*role != "assistant")
            return ApiError::badRequest("'" + where + ".content' is required", where + ".content", "missing_required_parameter");
    } else if (content->is_string()) {
        text = content->get<std::string>();
    } else if (content->is_array()) {
        for (size_t k = 0; k < content->size(); ++k) {
            const json& part = (*content)[k];
            const std::string pw = where + ".content[" + std::to_string(k) + "]";
            if (!part.is_object() || !part.contains("type") || !part["type"].is_string())
                return ApiError::badRequest("'" + pw + "' must be an object with a 'type'", pw, "invalid_type");
            const std::string type = part["type"];
            if (type != "text" && type != "input_text")
                return ApiError::badRequest("content parts of type '" + type + "' are not supported (text only)", pw,
                                            "unsupported_content");
            if (!part.contains("text") || !part["text"].is_string())
                return ApiError::badRequest("'" + pw + ".text' must be a string", pw + ".text", "invalid_type");
            if (!text.empty()) text += "\n";
            text += part["text"].get<std::string>();
        }
    } else {
        return ApiError::badRequest("'" + where + ".content' must be a string or an array of parts", where + ".content",
                                    "invalid_type");
    }
    msg["content"] = text;
    if (auto name = f.string("name")) msg["name"] = *name;
    if (auto id = f.string("tool_call_id")) msg["tool_call_id"] = *id;
    if (const json* calls = f.raw("tool_calls")) {
        if (!calls->is_array()) return ApiError::badRequest("'" + where + ".tool_calls' must be an array", where + ".tool_calls", "invalid_type");
        ordered_json list = ordered_json::array();
        for (const auto& call : *calls) {
            ordered_json c = ordered_json::parse(call.dump());
            // Templates index into the arguments: give them the object, not OpenAI's JSON string.
            if (c.contains("function") && c["function"].is_object() && c["function"].contains("arguments") &&
                c["function"]["arguments"].is_string()) {
                auto parsed = ordered_json::parse(c["function"]["arguments"].get<std::string>(), nullptr, false);
                if (!parsed.is_discarded()) c["function"]["arguments"] = parsed;
            }
            list.push_back(std::move(c));
        }
        msg["tool_calls"] = std::move(list);
    }
    if (!f.ok()) return f.error();
    out.push_back(std::move(msg));
    return std::nullopt;
}

std::optional<ApiError> readMessages(FieldReader& f, ordered_json& out, bool required) {
    const json* messages = f.raw("messages");
    if (!messages) {
        if (!required) return std::nullopt;
        return ApiError::badRequest("'messages' is required", "messages", "missing_required_parameter");
    }
    if (!messages->is_array()) return ApiError::badRequest("'messages' must be an array", "messages", "invalid_type");
    if (messages->empty() && required) return ApiError::badRequest("'messages' must not be empty", "messages");
    for (size_t i = 0; i < messages->size(); ++i)
        if (auto e = normalizeMessage((*messages)[i], i, out)) return e;
    return std::nullopt;
}

std::optional<ApiError> readTools(FieldReader& f, ordered_json& out) {
    const json* tools = f.raw("tools");
    if (!tools) return std::nullopt;
    if (!tools->is_array()) return ApiError::badRequest("'tools' must be an array", "tools", "invalid_type");
    if (!tools->empty()) out = ordered_json::parse(tools->dump());
    return std::nullopt;
}

std::optional<ApiError> readTokenArray(const json& v, const std::string& param, std::vector<TokenId>& out) {
    for (const auto& t : v) {
        if (!t.is_number_integer() || t.get<int64_t>() < 0 || t.get<int64_t>() > INT32_MAX)
            return ApiError::badRequest("'" + param + "' token ids must be non-negative integers", param, "invalid_type");
        out.push_back(static_cast<TokenId>(t.get<int64_t>()));
    }
    return std::nullopt;
}

}  // namespace

std::optional<ApiError> RequestParser::parseBody(const std::string& text, nlohmann::json& out) {
    out = json::parse(text, nullptr, false);
    if (out.is_discarded()) return ApiError::badRequest("The request body is not valid JSON", {}, "invalid_json");
    if (!out.is_object()) return ApiError::badRequest("The request body must be a JSON object", {}, "invalid_json");
    return std::nullopt;
}

std::optional<ApiError> RequestParser::chat(const json& body, ChatParams& out) {
    FieldReader f(body);
    if (auto e = readCommon(f, out.common, false)) return e;
    if (auto e = readMessages(f, out.messages, true)) return e;
    if (auto e = readTools(f, out.tools)) return e;
    if (auto v = f.boolean("logprobs")) out.logprobs = *v;
    if (auto v = f.integer("top_logprobs", 0, 20)) {
        if (!out.logprobs) return ApiError::badRequest("'top_logprobs' needs 'logprobs': true", "top_logprobs");
        out.topLogprobs = static_cast<int>(*v);
    }
    if (!f.ok()) return f.error();
    return std::nullopt;
}

std::optional<ApiError> RequestParser::completion(const json& body, CompletionParams& out) {
    FieldReader f(body);
    if (auto e = readCommon(f, out.common, false)) return e;
    if (auto v = f.boolean("echo")) out.echo = *v;
    if (auto v = f.integer("logprobs", 0, 20)) out.logprobs = static_cast<int>(*v);
    if (!f.ok()) return f.error();
    if (out.echo && out.logprobs >= 0)
        return ApiError::badRequest("'echo' together with 'logprobs' is not supported", "echo", "unsupported_parameter");
    const json* prompt = f.raw("prompt");
    if (!prompt) return ApiError::badRequest("'prompt' is required", "prompt", "missing_required_parameter");
    if (prompt->is_string()) {
        out.prompts.push_back({prompt->get<std::string>(), {}});
    } else if (prompt->is_array() && !prompt->empty()) {
        if ((*prompt)[0].is_number_integer()) {
            PromptInput in;
            if (auto e = readTokenArray(*prompt, "prompt", in.tokens)) return e;
            out.prompts.push_back(std::move(in));
        } else {
            for (const auto& p : *prompt) {
                PromptInput in;
                if (p.is_string()) in.text = p.get<std::string>();
                else if (p.is_array() && !p.empty()) {
                    if (auto e = readTokenArray(p, "prompt", in.tokens)) return e;
                } else
                    return ApiError::badRequest("'prompt' must be a string, an array of strings or of token ids", "prompt", "invalid_type");
                out.prompts.push_back(std::move(in));
            }
        }
    } else {
        return ApiError::badRequest("'prompt' must be a string, an array of strings or of token ids", "prompt", "invalid_type");
    }
    if (out.prompts.size() * static_cast<size_t>(out.common.n) > static_cast<size_t>(kMaxChoices))
        return ApiError::badRequest("at most " + std::to_string(kMaxChoices) + " prompts x n per request", "prompt");
    return std::nullopt;
}

std::optional<ApiError> RequestParser::ollama(const json& body, bool chat, OllamaParams& out) {
    FieldReader f(body);
    out.chat = chat;
    out.common.stream = true;  // Ollama streams unless told otherwise
    if (auto e = readCommon(f, out.common, true)) return e;
    if (chat) {
        if (auto e = readMessages(f, out.messages, false)) return e;
        if (auto e = readTools(f, out.tools)) return e;
        if (const json* msgs = f.raw("messages"))
            for (size_t i = 0; i < msgs->size(); ++i)
                if ((*msgs)[i].is_object() && (*msgs)[i].contains("images") && !(*msgs)[i]["images"].empty())
                    return ApiError::badRequest("images are not supported", "messages[" + std::to_string(i) + "].images",
                                                "unsupported_content");
    } else {
        if (auto v = f.string("prompt")) out.prompt = *v;
        if (auto v = f.string("system")) out.system = *v;
        if (auto v = f.string("suffix"); v && !v->empty())
            return ApiError::badRequest("'suffix' is not supported", "suffix", "unsupported_parameter");
        if (auto v = f.boolean("raw")) out.raw = *v;
        if (const json* ctx = f.raw("context")) {
            if (!ctx->is_array()) return ApiError::badRequest("'context' must be an array of token ids", "context", "invalid_type");
            if (auto e = readTokenArray(*ctx, "context", out.context)) return e;
        }
        if (const json* images = f.raw("images"); images && !images->empty())
            return ApiError::badRequest("images are not supported", "images", "unsupported_content");
    }
    if (const json* format = f.raw("format")) {
        if (format->is_string()) {
            if (*format == "json") out.common.constraint.kind = OutputConstraint::Kind::JsonObject;
            else if (!format->get<std::string>().empty())
                return ApiError::badRequest("'format' must be \"json\" or a JSON Schema object", "format");
        } else if (format->is_object()) {
            if (auto e = readConstraintSchema(*format, "format", out.common.constraint)) return e;
        } else {
            return ApiError::badRequest("'format' must be \"json\" or a JSON Schema object", "format", "invalid_type");
        }
    }
    if (const json* options = f.raw("options")) {
        if (!options->is_object()) return ApiError::badRequest("'options' must be an object", "options", "invalid_type");
        FieldReader o(*options, "options.");
        if (auto e = readSampling(o, out.common)) return e;
        if (auto v = o.integer("num_predict", -2, kMaxTokenLimit)) {
            if (*v == 0) return ApiError::badRequest("'options.num_predict' must not be 0", "options.num_predict");
            out.common.maxTokens = *v < 0 ? -1 : *v;  // -1 / -2: until the context is full
        }
        if (!o.ok()) return o.error();
    }
    if (!f.ok()) return f.error();
    return std::nullopt;
}

}  // namespace hearth::app::server
