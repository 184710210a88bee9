#include "server/OllamaRoutes.h"

#include <httplib.h>

#include "server/GenerationResponder.h"
#include "server/OllamaFormat.h"
#include "server/OllamaStream.h"
#include "server/RequestParser.h"

namespace hearth::app::server {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

void fail(ServerContext& ctx, httplib::Response& res, RequestScope& scope, const ApiError& e, int retry = 0) {
    ctx.replyError(res, e, true, retry);
    scope.entry.status = e.status;
}

// Ollama's generate without "raw": the prompt (and system text) go through the chat template.
std::optional<ApiError> buildGeneratePrompt(const ServedModel& model, const OllamaParams& p, BuiltPrompt& out) {
    if (p.raw) {
        if (auto e = PromptBuilder::text(model, p.prompt, out)) return e;
    } else {
        ordered_json messages = ordered_json::array();
        if (!p.system.empty()) messages.push_back({{"role", "system"}, {"content", p.system}});
        messages.push_back({{"role", "user"}, {"content", p.prompt}});
        if (auto e = PromptBuilder::chat(model, messages, nullptr, out)) return e;
    }
    if (!p.context.empty()) {
        // Continue an earlier exchange: its tokens, then this prompt without a second BOS.
        std::vector<TokenId> tokens = p.context;
        const auto more = model.tokenizer().encode(out.text, TokenizeOptions{false, true});
        tokens.insert(tokens.end(), more.begin(), more.end());
        BuiltPrompt merged;
        if (auto e = PromptBuilder::tokens(model, tokens, merged)) return e;
        merged.extraStops = out.extraStops;
        out = std::move(merged);
    }
    return std::nullopt;
}

}  // namespace

void OllamaRoutes::version(ServerContext& ctx, const httplib::Request&, httplib::Response& res,
                           const std::shared_ptr<RequestScope>& scope) {
    ctx.reply(res, {{"version", kApiVersion}});
    scope->entry.status = 200;
}

void OllamaRoutes::tags(ServerContext& ctx, const httplib::Request&, httplib::Response& res,
                        const std::shared_ptr<RequestScope>& scope) {
    json models = json::array();
    if (auto m = ctx.model()) models.push_back(OllamaFormat::tagEntry(*m));
    ctx.reply(res, {{"models", models}});
    scope->entry.status = 200;
}

void OllamaRoutes::ps(ServerContext& ctx, const httplib::Request&, httplib::Response& res,
                      const std::shared_ptr<RequestScope>& scope) {
    json models = json::array();
    if (auto m = ctx.model()) models.push_back(OllamaFormat::psEntry(*m));
    ctx.reply(res, {{"models", models}});
    scope->entry.status = 200;
}

void OllamaRoutes::chat(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                        const std::shared_ptr<RequestScope>& scope) {
    run(ctx, req, res, scope, true);
}

void OllamaRoutes::generate(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                            const std::shared_ptr<RequestScope>& scope) {
    run(ctx, req, res, scope, false);
}

void OllamaRoutes::run(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                       const std::shared_ptr<RequestScope>& scope, bool chat) {
    json body;
    if (auto e = RequestParser::parseBody(req.body, body)) return fail(ctx, res, *scope, *e);
    OllamaParams p;
    if (auto e = RequestParser::ollama(body, chat, p)) return fail(ctx, res, *scope, *e);
    ApiError error;
    int retry = 0;
    auto model = ctx.resolve(p.common.model, error, retry);
    if (!model) return fail(ctx, res, *scope, error, retry);
    scope->entry.model = model->id();
    const std::string name = p.common.model.empty() ? model->id() : p.common.model;

    // Nothing to say: Ollama answers at once that the model is loaded.
    if ((chat && p.messages.empty()) || (!chat && p.prompt.empty() && p.context.empty())) {
        json j = OllamaFormat::partial(name, chat, "");
        j["done"] = true;
        j["done_reason"] = "load";
        ctx.reply(res, j);
        scope->entry.status = 200;
        return;
    }
    if (auto e = ctx.admit(*scope, retry)) return fail(ctx, res, *scope, *e, retry);
    BuiltPrompt prompt;
    auto e = chat ? PromptBuilder::chat(*model, p.messages, p.tools, prompt) : buildGeneratePrompt(*model, p, prompt);
    if (!e) e = PromptBuilder::checkFits(*model, prompt, p.common.maxTokens);
    if (e) return fail(ctx, res, *scope, *e);

    auto requests = GenerationResponder::buildRequests(p.common, {prompt}, -1, 0, scope->fairnessKey({}));
    auto job = std::make_unique<GenerationJob>(model, std::move(requests));
    std::unique_ptr<StreamFormatter> stream;
    if (p.common.stream) stream = std::make_unique<OllamaStream>(name, chat, chat ? nullptr : &prompt.tokens);
    const std::vector<TokenId> promptTokens = prompt.tokens;
    GenerationResponder::respond(
        res, scope, std::move(job), std::move(stream),
        [name, chat, promptTokens](const ResponseAccumulator& acc) {
            const ChoiceState& c = acc.choice(0);
            std::vector<TokenId> context = promptTokens;
            context.insert(context.end(), c.tokens.begin(), c.tokens.end());
            return OllamaFormat::final(name, chat, c.text, acc, chat ? nullptr : &context);
        },
        1);
}

}  // namespace hearth::app::server
