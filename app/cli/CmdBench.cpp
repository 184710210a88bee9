// hearth-cli bench: engine throughput and latency.
//   bench -m MODEL [-p 512] [-n 128] [--threads N] [--json]
//       prefill tok/s (one P-token prompt in one step) and decode tok/s (N tokens, one sequence)
//   bench -m MODEL --concurrent N --prompt-len P --gen-len G [--shared-prefix L] [--json]
//       N requests at once: aggregate tok/s, TTFT p50/p95, inter-token latency p50/p95
//   bench -m MODEL --prefix-cache --prompt-len P [--ram-cache MiB] [--json]
//       TTFT of a cold prompt, a device prefix hit, and (with a RAM tier) a RAM hit after eviction
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "CliArgs.h"
#include "CollectingSink.h"
#include "CommandRegistry.h"
#include "EngineFlags.h"
#include "hearth/engine.h"

namespace hearth::cli {
namespace {

using Clock = std::chrono::steady_clock;

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

// Deterministic filler tokens (ids 3.. so BOS/EOS-like low ids are avoided).
std::vector<TokenId> randomTokens(int n, uint32_t seed, int vocab) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(3, std::max(3, vocab - 1));
    std::vector<TokenId> t(static_cast<size_t>(n));
    for (auto& x : t) x = d(rng);
    return t;
}

GenerationRequest fixedRequest(std::vector<TokenId> prompt, int n) {
    GenerationRequest r;
    r.promptTokens = std::move(prompt);
    r.maxTokens = n;
    r.ignoreEos = true;
    r.sampling.temperature = 0;
    return r;
}

std::shared_ptr<CollectingSink> runOne(Engine& e, GenerationRequest r) {
    auto s = std::make_shared<CollectingSink>();
    e.submit(std::move(r), s);
    s->wait();
    return s;
}

void print(const nlohmann::json& j, bool json) {
    if (json) {
        std::printf("%s\n", j.dump().c_str());
        return;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it->is_number_float()) std::printf("%-22s %.2f\n", it.key().c_str(), it->get<double>());
        else std::printf("%-22s %s\n", it.key().c_str(), it->dump().c_str());
    }
}

int benchSingle(Engine& e, int p, int n, int threads, bool json) {
    const int vocab = e.tokenizer().vocabSize();
    runOne(e, fixedRequest(randomTokens(8, 1, vocab), 2));  // warm-up: threads, buffers
    nlohmann::json j;
    if (p > 0) {
        auto s = runOne(e, fixedRequest(randomTokens(p, 2, vocab), 1));
        if (s->error) return fail(s->error->toString());
        j["prefill_tok_s"] = s->usage.ttftMs > 0 ? s->usage.computedPromptTokens / (s->usage.ttftMs / 1000.0) : 0.0;
    }
    if (n > 0) {
        auto s = runOne(e, fixedRequest(randomTokens(1, 3, vocab), n + 1));
        if (s->error) return fail(s->error->toString());
        const double sec = (s->usage.totalMs - s->usage.ttftMs) / 1000.0;
        j["decode_tok_s"] = sec > 0 ? (s->usage.completionTokens - 1) / sec : 0.0;
    }
    j["threads"] = threads;
    print(j, json);
    return 0;
}

int benchConcurrent(Engine& e, int n, int p, int g, int shared, bool json) {
    const int vocab = e.tokenizer().vocabSize();
    runOne(e, fixedRequest(randomTokens(8, 1, vocab), 2));
    const std::vector<TokenId> prefix = randomTokens(shared, 7, vocab);
    std::vector<std::shared_ptr<CollectingSink>> sinks;
    const auto t0 = Clock::now();
    for (int i = 0; i < n; ++i) {
        std::vector<TokenId> prompt = prefix;
        const auto tail = randomTokens(p - shared, 100 + i, vocab);
        prompt.insert(prompt.end(), tail.begin(), tail.end());
        auto r = fixedRequest(std::move(prompt), g);
        r.user = "bench" + std::to_string(i);
        sinks.push_back(std::make_shared<CollectingSink>());
        e.submit(std::move(r), sinks.back());
    }
    std::vector<double> ttft, itl;
    int64_t generated = 0, cached = 0;
    for (auto& s : sinks) {
        s->wait();
        if (s->error) return fail(s->error->toString());
        ttft.push_back(s->usage.ttftMs);
        generated += s->usage.completionTokens;
        cached += s->usage.cachedPromptTokens;
        for (size_t k = 1; k < s->eventTimes.size(); ++k) {
            const double ms = std::chrono::duration<double, std::milli>(s->eventTimes[k].at - s->eventTimes[k - 1].at).count();
            itl.push_back(ms / s->eventTimes[k].tokens);
        }
    }
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    nlohmann::json j;
    j["concurrent"] = n;
    j["prompt_len"] = p;
    j["gen_len"] = g;
    j["shared_prefix"] = shared;
    j["wall_s"] = wall;
    j["aggregate_tok_s"] = wall > 0 ? generated / wall : 0.0;
    j["total_tok_s"] = wall > 0 ? (generated + static_cast<int64_t>(n) * p - cached) / wall : 0.0;
    j["cached_prompt_tokens"] = cached;
    j["ttft_p50_ms"] = percentile(ttft, 0.5);
    j["ttft_p95_ms"] = percentile(ttft, 0.95);
    j["itl_p50_ms"] = percentile(itl, 0.5);
    j["itl_p95_ms"] = percentile(itl, 0.95);
    print(j, json);
    return 0;
}

// Median of three rounds, each with its own document: cold, then a device hit (the same prompt
// again), then, with a RAM tier, a RAM hit after unrelated prompts pushed it out of the device pool.
int benchPrefixCache(Engine& e, int p, bool json) {
    const int vocab = e.tokenizer().vocabSize();
    runOne(e, fixedRequest(randomTokens(8, 1, vocab), 2));
    const bool ramTier = e.stats().ramBlocksTotal > 0;
    std::vector<double> cold, device, ram;
    int deviceHit = 0;
    uint64_t ramHit = 0;
    for (int round = 0; round < 3; ++round) {
        const auto doc = randomTokens(p, 11 + static_cast<uint32_t>(round), vocab);
        auto c = runOne(e, fixedRequest(doc, 1));
        auto d = runOne(e, fixedRequest(doc, 1));
        if (c->error || d->error) return fail((c->error ? c->error : d->error)->toString());
        cold.push_back(c->usage.ttftMs);
        device.push_back(d->usage.ttftMs);
        deviceHit = d->usage.cachedPromptTokens;
        if (!ramTier) continue;
        const EngineStats st = e.stats();
        const uint64_t poolTokens = st.kvBlocksTotal * 16;
        const int fill = std::max(16, std::min(p, e.contextLength() - 1));
        for (uint64_t done = 0, i = 0; done < poolTokens + static_cast<uint64_t>(p); done += fill, ++i)
            runOne(e, fixedRequest(randomTokens(fill, 1000 + 100 * round + static_cast<uint32_t>(i), vocab), 1));
        const uint64_t before = e.stats().prefixHitTokensRam;  // stats count a request once its sink finished
        auto r = runOne(e, fixedRequest(doc, 1));
        if (r->error) return fail(r->error->toString());
        ram.push_back(r->usage.ttftMs);
        ramHit = e.stats().prefixHitTokensRam - before;
    }
    nlohmann::json j;
    j["prompt_len"] = p;
    j["ttft_cold_ms"] = percentile(cold, 0.5);
    j["ttft_device_hit_ms"] = percentile(device, 0.5);
    j["device_hit_tokens"] = deviceHit;
    if (ramTier) {
        j["ttft_ram_hit_ms"] = percentile(ram, 0.5);
        j["ram_hit_tokens"] = ramHit;
    }
    print(j, json);
    return 0;
}

int runBench(int argc, char** argv) {
    auto valueOpts = engineValueOptions();
    valueOpts.insert({"m", "model", "p", "n", "concurrent", "prompt-len", "gen-len", "shared-prefix"});
    CliArgs args(argc, argv, 2, valueOpts);
    const auto model = args.get("model", "m");
    const long long p = args.intOr("p", "p", 512), n = args.intOr("n", "n", 128);
    const long long conc = args.intOr("concurrent", "", 0);
    const long long plen = args.intOr("prompt-len", "", 512), glen = args.intOr("gen-len", "", 128);
    const long long shared = args.intOr("shared-prefix", "", 0);
    const bool prefixTest = args.flag("prefix-cache");
    const bool json = args.flag("json");
    EngineConfig config;
    if (prefixTest) config.maxSeqs = 1;  // a pool of about one context, so eviction is quick to force
    std::string flagError = readEngineFlags(args, config);
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    if (!flagError.empty()) return fail(flagError, 2);
    if (!model) return fail("bench needs -m MODEL", 2);
    if (p < 0 || n < 0 || p > (1 << 20) || n > (1 << 20)) return fail("-p and -n must be between 0 and 1048576", 2);
    if (conc < 0 || conc > 4096) return fail("--concurrent must be between 1 and 4096", 2);
    if (plen < 1 || glen < 1 || plen > (1 << 20) || glen > (1 << 20)) return fail("--prompt-len and --gen-len must be positive", 2);
    if (shared < 0 || shared > plen) return fail("--shared-prefix must be between 0 and --prompt-len", 2);

    config.modelPath = *model;
    // Room for the longest request of the run, even past the model's trained context (a speed test).
    const long long longest = conc ? plen + glen : prefixTest ? plen + 1 : std::max(p + 1, n + 2);
    if (config.contextLength == 0) config.contextLength = static_cast<int>(std::max<long long>(longest, 512));
    if (!conc) {
        // One step for the whole prompt, like llama-bench's pp test.
        config.maxBatchTokens = std::max<int>(config.maxBatchTokens, static_cast<int>(std::max(p, plen)));
        config.prefillChunk = std::max<int>(config.prefillChunk, static_cast<int>(std::max(p, plen)));
        if (!prefixTest) config.prefixCaching = false;
    }
    config.maxSeqs = std::max<int>(config.maxSeqs, static_cast<int>(conc));
    auto engine = Engine::create(config);
    if (!engine) return fail(engine.error().toString());
    // The CPU backend's default is one thread per hardware thread.
    const int threads = config.threads > 0 ? config.threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    if (conc) return benchConcurrent(**engine, static_cast<int>(conc), static_cast<int>(plen), static_cast<int>(glen),
                                     static_cast<int>(shared), json);
    if (prefixTest) return benchPrefixCache(**engine, static_cast<int>(plen), json);
    return benchSingle(**engine, static_cast<int>(p), static_cast<int>(n), threads, json);
}

RegisterCommand reg("bench",
                    "bench -m MODEL [-p 512] [-n 128] [--threads N] [--json] | --concurrent N --prompt-len P\n"
                    "      --gen-len G [--shared-prefix L] | --prefix-cache --prompt-len P [--ram-cache MiB]",
                    runBench);

}  // namespace
}  // namespace hearth::cli
