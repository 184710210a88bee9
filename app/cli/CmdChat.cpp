// hearth-cli chat -m MODEL [--system TEXT] [sampling flags] [engine flags]
//
// An interactive multi-turn chat in the terminal. Each turn re-submits the whole conversation
// through the model's chat template; the engine's prefix cache holds the KV of every earlier turn,
// so only the new user message (and the template's glue) is computed. After each reply, a line on
// stderr reports how many prompt tokens were served from the cache. Lines starting with '/' are
// commands: /reset starts over, /exit (or end of input) quits.
#include <cstdio>
#include <iostream>
#include <string>

#include "CliArgs.h"
#include "CollectingSink.h"
#include "CommandRegistry.h"
#include "EngineFlags.h"
#include "SamplingFlags.h"
#include "hearth/chat_formatter.h"

namespace hearth::cli {
namespace {

int runChat(int argc, char** argv) {
    auto valueOpts = engineValueOptions();
    for (const auto& o : samplingValueOptions()) valueOpts.insert(o);
    valueOpts.insert({"m", "model", "system"});
    CliArgs args(argc, argv, 2, valueOpts);
    EngineConfig config;
    auto model = args.get("model", "m");
    const std::string system = args.getOr("system", "", "");
    GenerationRequest base;
    base.sampling.temperature = 0.7f;
    std::string err = readEngineFlags(args, config);
    if (err.empty()) err = readSamplingFlags(args, base, 512);
    if (err.empty()) err = args.finish();
    if (!err.empty()) return fail(err, 2);
    if (!model) return fail("chat needs -m MODEL", 2);
    config.modelPath = *model;
    auto engine = Engine::create(config);
    if (!engine) return fail(engine.error().toString());
    auto formatter = ChatFormatter::create((*engine)->chatTemplate(), (*engine)->tokenizerPtr());
    if (!formatter) return fail(formatter.error().toString());
    if (formatter->usesFallback()) std::fprintf(stderr, "(this model has no chat template: using the plain transcript format)\n");

    ChatTemplateInputs conv;
    auto reset = [&] {
        conv.messages = nlohmann::ordered_json::array();
        if (!system.empty()) conv.messages.push_back({{"role", "system"}, {"content", system}});
    };
    reset();
    std::string line;
    for (;;) {
        std::fprintf(stderr, "> ");
        std::fflush(stderr);
        if (!std::getline(std::cin, line) || line == "/exit") break;
        if (line == "/reset") {
            reset();
            continue;
        }
        if (line.empty()) continue;
        conv.messages.push_back({{"role", "user"}, {"content", line}});
        conv.addGenerationPrompt = true;
        auto prompt = formatter->format(conv);
        if (!prompt) {
            conv.messages.erase(conv.messages.end() - 1);
            std::fprintf(stderr, "error: %s\n", prompt.error().toString().c_str());
            continue;
        }
        GenerationRequest req = base;
        req.promptTokens = prompt->tokens;
        req.stop = prompt->stopStrings;
        req.stopTokens = prompt->stopTokens;
        req.user = "cli-chat";
        auto sink = std::make_shared<CollectingSink>([](std::string_view t) {
            std::fwrite(t.data(), 1, t.size(), stdout);
            std::fflush(stdout);
        });
        (*engine)->submit(std::move(req), sink);
        sink->wait();
        std::printf("\n");
        std::fflush(stdout);
        if (sink->error) {
            std::fprintf(stderr, "error: %s\n", sink->error->toString().c_str());
            conv.messages.erase(conv.messages.end() - 1);
            continue;
        }
        std::fprintf(stderr, "[%d prompt tokens, %d from cache, %d generated, %s]\n", sink->usage.promptTokens,
                     sink->usage.cachedPromptTokens, sink->usage.completionTokens, finishReasonName(sink->reason));
        // Templates put their own separator before the reply; a leading space the model generated
        // would be doubled on the next render and break the cached prefix.
        const size_t start = sink->text.find_first_not_of(" \n");
        conv.messages.push_back({{"role", "assistant"}, {"content", start == std::string::npos ? "" : sink->text.substr(start)}});
    }
    return 0;
}

RegisterCommand reg("chat", "chat -m MODEL [--system TEXT] [--temp T] [-n N] ...  interactive chat (KV kept between turns)",
                    runChat);

}  // namespace
}  // namespace hearth::cli
