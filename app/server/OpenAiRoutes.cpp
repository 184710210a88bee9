#include "server/OpenAiRoutes.h"

#include <httplib.h>

#include "server/GenerationResponder.h"
#include "server/OpenAiChatStream.h"
#include "server/OpenAiCompletionStream.h"
#include "server/OpenAiFormat.h"
#include "server/RequestParser.h"

namespace hearth::app::server {
namespace {

using nlohmann::json;

// Steps shared by both generating routes: body, model, admission. Null (and a reply sent) on error.
std::shared_ptr<const ServedModel> prepare(ServerContext& ctx, httplib::Response& res, RequestScope& scope,
                                           const std::string& requestedModel) {
    ApiError error;
    int retry = 0;
    auto model = ctx.resolve(requestedModel, error, retry);
    if (!model) {
        ctx.replyError(res, error, false, retry);
        scope.entry.status = error.status;
        return nullptr;
    }
    scope.entry.model = model->id();
    if (auto e = ctx.admit(scope, retry)) {
        ctx.replyError(res, *e, false, retry);
        scope.entry.status = e->status;
        return nullptr;
    }
    return model;
}

void fail(ServerContext& ctx, httplib::Response& res, RequestScope& scope, const ApiError& e) {
    ctx.replyError(res, e, false);
    scope.entry.status = e.status;
}

}  // namespace

void OpenAiRoutes::models(ServerContext& ctx, const httplib::Request&, httplib::Response& res,
                          const std::shared_ptr<RequestScope>& scope) {
    json data = json::array();
    if (auto m = ctx.model()) data.push_back(OpenAiFormat::modelObject(*m));
    ctx.reply(res, {{"object", "list"}, {"data", data}});
    scope->entry.status = 200;
}

void OpenAiRoutes::model(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                         const std::shared_ptr<RequestScope>& scope) {
    const std::string id = req.matches.size() > 1 ? std::string(req.matches[1]) : std::string();
    auto m = ctx.model();
    if (!m || !m->matches(id)) return fail(ctx, res, *scope, ApiError::modelNotFound(id));
    ctx.reply(res, OpenAiFormat::modelObject(*m));
    scope->entry.status = 200;
}

void OpenAiRoutes::chatCompletions(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                                   const std::shared_ptr<RequestScope>& scope) {
    json body;
    if (auto e = RequestParser::parseBody(req.body, body)) return fail(ctx, res, *scope, *e);
    ChatParams p;
    if (auto e = RequestParser::chat(body, p)) return fail(ctx, res, *scope, *e);
    auto model = prepare(ctx, res, *scope, p.common.model);
    if (!model) return;
    BuiltPrompt prompt;
    if (auto e = PromptBuilder::chat(*model, p.messages, p.tools, prompt)) return fail(ctx, res, *scope, *e);
    if (auto e = PromptBuilder::checkFits(*model, prompt, p.common.maxTokens)) return fail(ctx, res, *scope, *e);

    const int engineLogprobs = p.logprobs ? std::max(1, p.topLogprobs) : 0;
    auto requests = GenerationResponder::buildRequests(p.common, {prompt}, -1, engineLogprobs,
                                                       scope->fairnessKey(p.common.user));
    auto job = std::make_unique<GenerationJob>(model, std::move(requests));
    const ResponseIdentity who = OpenAiFormat::identity("chatcmpl-", model->id());
    std::unique_ptr<StreamFormatter> stream;
    if (p.common.stream)
        stream = std::make_unique<OpenAiChatStream>(who, job->choices(), p.common.includeUsage, p.logprobs, p.topLogprobs,
                                                    model->tokenizer());
    const bool logprobs = p.logprobs;
    const int top = p.topLogprobs;
    GenerationResponder::respond(
        res, scope, std::move(job), std::move(stream),
        [who, model, logprobs, top](const ResponseAccumulator& acc) {
            return OpenAiFormat::chatResponse(who, acc, logprobs, top, model->tokenizer());
        },
        p.common.n);
}

void OpenAiRoutes::completions(ServerContext& ctx, const httplib::Request& req, httplib::Response& res,
                               const std::shared_ptr<RequestScope>& scope) {
    json body;
    if (auto e = RequestParser::parseBody(req.body, body)) return fail(ctx, res, *scope, *e);
    CompletionParams p;
    if (auto e = RequestParser::completion(body, p)) return fail(ctx, res, *scope, *e);
    auto model = prepare(ctx, res, *scope, p.common.model);
    if (!model) return;
    std::vector<BuiltPrompt> prompts;
    std::vector<std::string> echo;
    for (const auto& in : p.prompts) {
        BuiltPrompt bp;
        auto e = in.tokens.empty() ? PromptBuilder::text(*model, in.text, bp) : PromptBuilder::tokens(*model, in.tokens, bp);
        if (!e) e = PromptBuilder::checkFits(*model, bp, p.common.maxTokens);
        if (e) {
            e->param = "prompt";
            return fail(ctx, res, *scope, *e);
        }
        echo.push_back(p.echo ? (in.tokens.empty() ? in.text : bp.text) : std::string());
        prompts.push_back(std::move(bp));
    }
    auto requests = GenerationResponder::buildRequests(p.common, prompts, 16, p.logprobs >= 0 ? std::max(1, p.logprobs) : 0,
                                                       scope->fairnessKey(p.common.user));
    auto job = std::make_unique<GenerationJob>(model, std::move(requests));
    const ResponseIdentity who = OpenAiFormat::identity("cmpl-", model->id());
    std::unique_ptr<StreamFormatter> stream;
    if (p.common.stream)
        stream = std::make_unique<OpenAiCompletionStream>(who, job->choices(), p.common.n, p.common.includeUsage,
                                                          p.logprobs, echo, model->tokenizer());
    const int logprobs = p.logprobs;
    const int n = p.common.n;
    GenerationResponder::respond(
        res, scope, std::move(job), std::move(stream),
        [who, model, logprobs, echo, n](const ResponseAccumulator& acc) {
            return OpenAiFormat::completionResponse(who, acc, logprobs, echo, n, model->tokenizer());
        },
        n);
}

}  // namespace hearth::app::server
