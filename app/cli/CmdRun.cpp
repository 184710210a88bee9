// hearth-cli run: raw completion (no chat template) through the engine.
//   run -m MODEL -p PROMPT [-n N] [sampling] [--json] [engine flags]
//       the continuation on stdout, streamed; --json prints one object at the end
//   run -m MODEL --chat -p MESSAGE [--system TEXT] [...]
//       the message as one user turn through the model's chat template (or --chat-template FILE);
//       the reply stops at the template's end-of-turn token
//   run -m MODEL --prompts FILE.jsonl [sampling defaults] [engine flags]
//       every line {"prompt", "n", "temp", "seed", "ignore_eos", "user"} submitted at once to one
//       engine (continuous batching; --sequential: one after another); one JSON line per request,
//       in input order, with its tokens, timings and speculative-decoding counts; --warmup runs
//       every prompt once first, unreported, under its own prefix-cache salt (kernels loaded, CUDA
//       graphs captured, the draft planner's step costs learned: what a server that has been up a
//       while has already paid), so the reported pass measures the steady state
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "CliArgs.h"
#include "CollectingSink.h"
#include "CommandRegistry.h"
#include "EngineFlags.h"
#include "SamplingFlags.h"
#include "hearth/chat_formatter.h"
#include "hearth/engine.h"

namespace hearth::cli {
namespace {

struct Job {
    GenerationRequest request;
    std::shared_ptr<CollectingSink> sink;
};

nlohmann::json resultJson(const Job& job) {
    const Usage& u = job.sink->usage;
    nlohmann::json j;
    j["prompt_tokens"] = job.request.promptTokens;
    j["tokens"] = job.sink->tokens;
    j["text"] = job.sink->text;
    // Prefill: the prompt tokens run through the model by the first token; decode: the rest.
    const double prefillSec = u.ttftMs / 1000.0;
    const double decodeSec = (u.totalMs - u.ttftMs) / 1000.0;
    j["timings"] = {{"prefill_tok_s", prefillSec > 0 ? u.computedPromptTokens / prefillSec : 0.0},
                    {"decode_tok_s", decodeSec > 0 && u.completionTokens > 1 ? (u.completionTokens - 1) / decodeSec : 0.0}};
    j["ttft_ms"] = u.ttftMs;
    j["cached_prompt_tokens"] = u.cachedPromptTokens;
    j["total_ms"] = u.totalMs;
    if (u.draftProposed > 0) j["speculative"] = {{"proposed", u.draftProposed}, {"accepted", u.draftAccepted}};
    j["finish_reason"] = finishReasonName(job.sink->reason);
    if (job.sink->error) j["error"] = job.sink->error->toString();
    return j;
}

std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// Reads one JSONL line into a request (fields left out keep the command-line defaults).
std::string parseLine(const std::string& line, GenerationRequest& r, const Tokenizer& tok) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return "not a JSON object";
    try {
        if (!j.contains("prompt") || !j["prompt"].is_string()) return "needs a string \"prompt\"";
        r.promptTokens = tok.encode(j["prompt"].get<std::string>(), TokenizeOptions{true, true});
        if (j.contains("n")) r.maxTokens = j["n"].get<int>();
        if (j.contains("temp")) r.sampling.temperature = j["temp"].get<float>();
        if (j.contains("seed")) r.sampling.seed = j["seed"].get<uint64_t>();
        if (j.contains("ignore_eos")) r.ignoreEos = j["ignore_eos"].get<bool>();
        if (j.contains("user")) r.user = j["user"].get<std::string>();
    } catch (const nlohmann::json::exception& e) {
        return std::string("a field has the wrong type (") + e.what() + ")";
    }
    if (r.maxTokens < 0) return "\"n\" must not be negative";
    return {};
}

int runRun(int argc, char** argv) {
    auto valueOpts = engineValueOptions();
    valueOpts.merge(samplingValueOptions());
    valueOpts.insert({"m", "model", "p", "prompt", "prompts", "system"});
    CliArgs args(argc, argv, 2, valueOpts);
    EngineConfig config;
    const auto model = args.get("model", "m");
    const auto prompt = args.get("prompt", "p");
    const auto promptsFile = args.get("prompts");
    GenerationRequest base;
    const std::string samplingError = readSamplingFlags(args, base, 128);
    const bool json = args.flag("json");
    const bool chat = args.flag("chat");
    const bool sequential = args.flag("sequential");
    const bool warmup = args.flag("warmup");
    const auto system = args.get("system");
    const std::string flagError = readEngineFlags(args, config);
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    if (!samplingError.empty()) return fail(samplingError, 2);
    if (!flagError.empty()) return fail(flagError, 2);
    if (!model) return fail("run needs -m MODEL", 2);
    if (prompt.has_value() == promptsFile.has_value()) return fail("run needs exactly one of -p PROMPT or --prompts FILE", 2);
    if (chat && !prompt) return fail("--chat goes with -p MESSAGE", 2);
    if (system && !chat) return fail("--system needs --chat", 2);
    if (warmup && !promptsFile) return fail("--warmup goes with --prompts", 2);

    std::vector<Job> jobs;
    std::vector<std::string> lines;
    if (promptsFile) {
        std::ifstream in(*promptsFile);
        if (!in) return fail("cannot open '" + *promptsFile + "'");
        for (std::string line; std::getline(in, line);)
            if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
        if (lines.empty()) return fail("'" + *promptsFile + "' has no prompts");
    }

    config.modelPath = *model;
    auto engine = Engine::create(config);
    if (!engine) return fail(engine.error().toString());
    Engine& e = **engine;

    if (prompt) {
        Job job{base, nullptr};
        if (chat) {
            auto formatter = ChatFormatter::create(e.chatTemplate(), e.tokenizerPtr());
            if (!formatter) return fail(formatter.error().toString());
            ChatTemplateInputs conv;
            conv.messages = nlohmann::ordered_json::array();
            if (system) conv.messages.push_back({{"role", "system"}, {"content", *system}});
            conv.messages.push_back({{"role", "user"}, {"content", *prompt}});
            conv.addGenerationPrompt = true;
            auto formatted = formatter->format(conv);
            if (!formatted) return fail(formatted.error().toString());
            job.request.promptTokens = std::move(formatted->tokens);
            job.request.stop = std::move(formatted->stopStrings);
            job.request.stopTokens = std::move(formatted->stopTokens);
        } else {
            job.request.promptTokens = e.tokenizer().encode(*prompt, TokenizeOptions{true, true});
        }
        const bool stream = !json;
        job.sink = std::make_shared<CollectingSink>([stream](std::string_view t) {
            if (!stream) return;
            std::fwrite(t.data(), 1, t.size(), stdout);
            std::fflush(stdout);
        });
        e.submit(job.request, job.sink);
        job.sink->wait();
        if (job.sink->error) return fail(job.sink->error->toString());
        if (json) std::printf("%s\n", dump(resultJson(job)).c_str());
        else if (isatty(STDOUT_FILENO)) std::printf("\n");
        return 0;
    }

    for (size_t i = 0; i < lines.size(); ++i) {
        Job job{base, std::make_shared<CollectingSink>()};
        if (auto err = parseLine(lines[i], job.request, e.tokenizer()); !err.empty())
            return fail(*promptsFile + " line " + std::to_string(i + 1) + ": " + err, 2);
        jobs.push_back(std::move(job));
    }
    // All at once (one continuous batch), or --sequential: each after the previous one finished;
    // done(job) in input order, false to stop there.
    auto runAll = [&](std::vector<Job>& js, auto&& done) {
        if (!sequential)
            for (auto& job : js) e.submit(job.request, job.sink);
        for (auto& job : js) {
            if (sequential) e.submit(job.request, job.sink);
            job.sink->wait();
            if (!done(job)) return;
        }
    };
    if (warmup) {
        // The same requests, run the same way, with nothing shared with the measured pass through
        // the prefix cache.
        std::vector<Job> warm;
        for (const auto& job : jobs) {
            warm.push_back({job.request, std::make_shared<CollectingSink>()});
            warm.back().request.cacheSalt += "\x1fwarmup";
        }
        const Job* failed = nullptr;
        runAll(warm, [&](const Job& w) {
            if (w.sink->error) failed = &w;
            return failed == nullptr;
        });
        if (failed) return fail("warm-up: " + failed->sink->error->toString());
    }
    int failures = 0;
    runAll(jobs, [&](const Job& job) {
        std::printf("%s\n", dump(resultJson(job)).c_str());
        if (job.sink->error) {
            std::fprintf(stderr, "error: %s\n", job.sink->error->toString().c_str());
            ++failures;
        }
        return true;
    });
    std::fflush(stdout);
    return failures ? 1 : 0;
}

RegisterCommand reg("run",
                    "run -m MODEL (-p PROMPT | --prompts FILE.jsonl [--sequential] [--warmup]) [-n N] [--temp T] [--top-k K]\n"
                    "      [--top-p P] [--min-p P] [--seed S] [--ignore-eos] [--json] [--threads N] [--ctx N] [--kv-type f16|q8_0|fp8]\n"
                    "      [--ram-cache MiB] [--disk-cache DIR] [--max-seqs N] [--batch-tokens N]\n"
                    "      [--chat [--system TEXT] [--chat-template FILE]] [--spec ngram|index:PATH|draft:MODEL]\n"
                    "      [--spec-max N] [--devices 0,1 --split 3,1 --cpu-layers N]   completion (or one chat turn)",
                    runRun);

}  // namespace
}  // namespace hearth::cli
