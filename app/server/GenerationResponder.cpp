#include "server/GenerationResponder.h"

#include <httplib.h>

#include "server/ServerContext.h"
#include "server/StreamSession.h"

namespace hearth::app::server {

std::vector<GenerationRequest> GenerationResponder::buildRequests(const CommonParams& p,
                                                                  const std::vector<BuiltPrompt>& prompts,
                                                                  int defaultMaxTokens, int logprobs,
                                                                  const std::string& fairnessKey) {
    std::vector<GenerationRequest> out;
    for (const auto& prompt : prompts) {
        for (int k = 0; k < p.n; ++k) {
            GenerationRequest r;
            r.promptTokens = prompt.tokens;
            r.sampling = p.sampling;
            r.sampling.logprobs = logprobs;
            if (p.seeded) r.sampling.seed = p.sampling.seed + static_cast<uint64_t>(out.size());
            r.maxTokens = p.maxTokens ? static_cast<int>(*p.maxTokens) : defaultMaxTokens;
            r.stop = p.stop;
            r.stop.insert(r.stop.end(), prompt.extraStops.begin(), prompt.extraStops.end());
            r.user = fairnessKey;
            r.ignoreEos = p.ignoreEos;
            if (!p.ignoreEos) r.stopTokens = prompt.stopTokens;
            r.constraint = p.constraint;
            out.push_back(std::move(r));
        }
    }
    return out;
}

void GenerationResponder::respond(httplib::Response& res, std::shared_ptr<RequestScope> scope,
                                  std::unique_ptr<GenerationJob> job, std::unique_ptr<StreamFormatter> stream,
                                  const BodyBuilder& body, int choicesPerPrompt) {
    ServerContext& ctx = scope->context;
    scope->entry.model = job->model().id();
    job->start();
    if (stream) {
        auto session = std::make_shared<StreamSession>(scope, std::move(job), std::move(stream), choicesPerPrompt);
        res.status = 200;
        res.set_header("Cache-Control", "no-cache");
        res.set_header("X-Accel-Buffering", "no");
        res.set_chunked_content_provider(
            session->contentType(), [session](size_t, httplib::DataSink& sink) { return session->pump(sink); },
            [session](bool completed) { session->close(completed); });
        return;
    }
    ResponseAccumulator acc(job->choices(), choicesPerPrompt);
    while (!job->done()) {
        if (ctx.stopping()) job->cancel();
        for (const auto& e : job->next(std::chrono::milliseconds(100))) acc.add(e);
    }
    scope->entry.promptTokens = acc.promptTokens();
    scope->entry.completionTokens = acc.completionTokens();
    if (acc.firstError()) {
        const ApiError error = ApiError::fromEngine(*acc.firstError());
        ctx.replyError(res, error, scope->ollama);
        scope->entry.status = error.status;
        return;
    }
    ctx.reply(res, body(acc));
    scope->entry.status = 200;
}

}  // namespace hearth::app::server
