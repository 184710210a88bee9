// hearth-gpu-bench: speed of the CUDA backend on random-weight models with real shapes.
//
//   hearth-gpu-bench --shape llama8b --mix q4_k_m [--dir /dev/shm] [--tests decode,pp512,agg,kv,restore,verify,logits]
//                    [--batch-invariant 1] [--keep 1 | --model FILE] [--seqs 8,32,64] [--verify-tokens 1,8]
//                    [--logits-out FILE]
//
// Generates the model (RandomModel.h), loads it through the backend factory on device 0, and
// reports: batch-1 decode tok/s (device sampling, CUDA graphs) with the fraction of the memory
// bandwidth it implies; pp512 prefill tok/s; aggregate decode tok/s at 8/32/64 sequences with
// 128-token prompts; F16 vs FP8 KV decode at long context; restoring a 32k-token prefix from host
// memory vs recomputing it; speculative verification steps of 1..16 tokens. One JSON line per measurement goes to --json.
// The logits test writes the logits of decode steps of 64, 32, 12 and 8 sequences (after their
// prompts) to --logits-out as raw floats, so two builds' outputs can be compared bit for bit (cmp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "RandomModel.h"
#include "backend/BackendFactory.h"
#include "model/ModelWeights.h"

using namespace hearth;
using Clock = std::chrono::steady_clock;

namespace {

struct Args {
    std::string shape = "llama8b", mix = "q4_k_m", dir = "/dev/shm", json, tests = "decode,pp512,agg,kv,restore", model, logitsOut;
    std::vector<int> seqs = {8, 32, 64};  // sequence counts of the aggregate test
    std::vector<int> verifyTokens = {1, 2, 3, 4, 5, 8, 9, 16};  // step sizes of the verification test
    double bandwidth = 4.3e12;
    bool keep = false, batchInvariant = false;
};

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }
std::vector<int> intList(const std::string& v) {
    std::vector<int> out;
    for (size_t p = 0; p < v.size();) {
        const size_t c = v.find(',', p);
        out.push_back(std::atoi(v.substr(p, c - p).c_str()));
        p = c == std::string::npos ? v.size() : c + 1;
    }
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

class Bench {
public:
    Bench(Args a, Backend& b, const ModelConfig& c, uint64_t weightBytes) : a_(std::move(a)), b_(b), c_(c), weightBytes_(weightBytes) {
        if (!a_.json.empty()) json_.open(a_.json, std::ios::app);
    }

    void record(const std::string& what, double value, const std::string& unit, const std::string& extra = "") {
        std::printf(unit == "ms" ? "%-40s %12.3f %s %s\n" : "%-40s %12.1f %s %s\n", what.c_str(), value, unit.c_str(), extra.c_str());
        std::fflush(stdout);
        if (json_)
            json_ << "{\"shape\":\"" << a_.shape << "\",\"mix\":\"" << a_.mix << "\",\"what\":\"" << what << "\",\"value\":" << value
                  << ",\"unit\":\"" << unit << "\"}\n";
    }

    // Prefill `n` sequences of `len` random tokens, in steps of at most 2048 tokens.
    bool prefill(int n, int len, int firstBlock) {
        std::mt19937 rng(11);
        int s = 0;
        while (s < n) {
            ForwardBatch fb;
            while (s < n && fb.numTokens() + len <= 2048) {
                std::vector<int32_t> toks(len);
                for (auto& t : toks) t = static_cast<int32_t>(rng() % c_.nVocab);
                fb.addSequence(toks, 0, table(firstBlock + s * blocksPer_, len), false, true);
                ++s;
            }
            if (fb.seqs.empty()) {  // one sequence longer than a step: chunks
                for (int p = 0; p < len; p += 2048) {
                    ForwardBatch ch;
                    const int m = std::min(2048, len - p);
                    std::vector<int32_t> toks(m);
                    for (auto& t : toks) t = static_cast<int32_t>(rng() % c_.nVocab);
                    ch.addSequence(toks, p, table(firstBlock + s * blocksPer_, p + m), false, true);
                    if (!step(ch)) return false;
                }
                ++s;
                continue;
            }
            if (!step(fb)) return false;
        }
        return true;
    }

    bool step(const ForwardBatch& fb) {
        std::vector<float> l;
        const Status st = b_.forward(fb, l);
        if (!st.ok()) std::fprintf(stderr, "forward: %s\n", st.error().toString().c_str());
        return st.ok();
    }

    std::vector<int32_t> table(int first, int positions) const {
        std::vector<int32_t> t;
        for (int i = 0; i * kBlockSize < positions; ++i) t.push_back(first + i);
        return t;
    }

    // Median step time of `steps` greedy decode steps over n sequences at context ctx.
    double decode(int n, int ctx, int steps) {
        std::vector<double> times;
        std::vector<Backend::RowSampling> rows(n);
        std::vector<TokenId> out;
        for (int i = 0; i < steps + 3; ++i) {
            ForwardBatch fb;
            for (int s = 0; s < n; ++s)
                fb.addSequence({static_cast<int32_t>((s * 7 + i) % c_.nVocab)}, ctx + i, table(s * blocksPer_, ctx + i + 1), false, true);
            const auto t0 = Clock::now();
            const Status st = b_.forwardSample(fb, rows, out);
            const auto t1 = Clock::now();
            if (!st.ok()) {
                std::fprintf(stderr, "decode: %s\n", st.error().toString().c_str());
                return 0;
            }
            if (i >= 3) times.push_back(ms(t0, t1));
        }
        return median(times);
    }

    void setBlocksPer(int b) { blocksPer_ = b; }
    uint64_t kvBytesPerToken() const { return b_.kvBlockBytes(kv_) / kBlockSize; }
    void setKv(KvDType k) { kv_ = k; }

    void runDecode1() {
        setBlocksPer(64);
        if (!prefill(1, 512, 0)) return;
        const double t = decode(1, 512, 64);
        const double bytes = static_cast<double>(weightBytes_) + 512.0 * kvBytesPerToken();
        record("decode batch 1 (ctx 512)", 1000.0 / t, "tok/s",
               "(" + std::to_string(t).substr(0, 6) + " ms/token, " + std::to_string(bytes / (t * 1e-3) / a_.bandwidth * 100).substr(0, 5) +
                   "% of " + std::to_string(a_.bandwidth / 1e12).substr(0, 3) + " TB/s)");
    }

    void runPrefill512() {
        std::mt19937 rng(5);
        std::vector<int32_t> toks(512);
        for (auto& t : toks) t = static_cast<int32_t>(rng() % c_.nVocab);
        std::vector<double> times;
        for (int i = 0; i < 6; ++i) {
            ForwardBatch fb;
            fb.addSequence(toks, 0, table(0, 512), false, true);
            const auto t0 = Clock::now();
            if (!step(fb)) return;
            if (i) times.push_back(ms(t0, Clock::now()));
        }
        record("pp512 (one sequence)", 512.0 / (median(times) * 1e-3), "tok/s");
    }

    // Speculative verification steps: one sequence at context 512 scoring T tokens (its token and
    // T - 1 drafts) with every row sampled on the device, as the engine's verification steps are;
    // the median step time per T against T = 1 (a plain decode step).
    void runVerify() {
        setBlocksPer(64);
        if (!prefill(1, 512, 0)) return;
        for (int T : a_.verifyTokens) {
            if (T < 1 || T > 64) continue;
            std::vector<double> times;
            std::vector<Backend::RowSampling> rows(T);
            std::vector<TokenId> out;
            for (int i = 0; i < 43; ++i) {
                ForwardBatch fb;
                std::vector<int32_t> toks(T);
                for (int j = 0; j < T; ++j) toks[j] = static_cast<int32_t>((i * 13 + j * 7) % c_.nVocab);
                fb.addSequence(toks, 512, table(0, 512 + T), true, true);
                const auto t0 = Clock::now();
                const Status st = b_.forwardSample(fb, rows, out);
                const auto t1 = Clock::now();
                if (!st.ok()) {
                    std::fprintf(stderr, "verify: %s\n", st.error().toString().c_str());
                    return;
                }
                if (i >= 3) times.push_back(ms(t0, t1));
            }
            record("verify step, " + std::to_string(T) + " tokens (ctx 512)", median(times), "ms");
        }
    }

    void runAggregate() {
        for (int n : a_.seqs) {
            setBlocksPer(10);  // 128-token prompts + 32 decode steps fit in 10 blocks
            if (!prefill(n, 128, 0)) return;
            const double t = decode(n, 128, 24);
            record("aggregate decode, " + std::to_string(n) + " sequences", n * 1000.0 / t, "tok/s",
                   "(" + std::to_string(t).substr(0, 6) + " ms/step)");
        }
    }

    void runLogits() {
        std::FILE* f = std::fopen(a_.logitsOut.c_str(), "wb");
        if (!f) {
            std::fprintf(stderr, "logits: cannot write %s\n", a_.logitsOut.c_str());
            return;
        }
        setBlocksPer(10);
        size_t written = 0;
        for (int n : {64, 32, 12, 8}) {
            if (!prefill(n, 128, 0)) break;
            ForwardBatch fb;
            for (int s = 0; s < n; ++s)
                fb.addSequence({static_cast<int32_t>((s * 13 + 5) % c_.nVocab)}, 128, table(s * blocksPer_, 129), false, true);
            std::vector<float> l;
            if (const Status st = b_.forward(fb, l); !st.ok()) {
                std::fprintf(stderr, "logits: %s\n", st.error().toString().c_str());
                break;
            }
            written += std::fwrite(l.data(), sizeof(float), l.size(), f);
        }
        std::fclose(f);
        std::printf("logits: %zu values to %s\n", written, a_.logitsOut.c_str());
    }

    void runKvCompare(uint32_t blocks) {
        for (KvDType kv : {KvDType::F16, KvDType::FP8_E4M3}) {
            if (!b_.allocateKv(blocks, kv).ok()) {
                record("KV allocation failed", 0, "");
                return;
            }
            setKv(kv);
            const char* name = kv == KvDType::F16 ? "f16" : "fp8";
            setBlocksPer(66);  // 1024 + 32 positions
            if (!prefill(32, 1024, 0)) return;
            const double t = decode(32, 1024, 16);
            record(std::string("decode 32 seqs at ctx 1024, KV ") + name, 32 * 1000.0 / t, "tok/s",
                   "(" + std::to_string(b_.kvBlockBytes(kv) * 1024 / kBlockSize >> 20) + " MiB KV per 1k tokens)");
        }
        if (const Status st = b_.allocateKv(blocks, KvDType::F16); !st.ok())
            std::fprintf(stderr, "KV: %s\n", st.error().toString().c_str());
        setKv(KvDType::F16);
    }

    void runRestore() {
        const int len = 32768;
        setBlocksPer(len / kBlockSize);
        const auto t0 = Clock::now();
        if (!prefill(1, len, 0)) return;
        const double recompute = ms(t0, Clock::now());
        std::vector<int32_t> ids(len / kBlockSize);
        std::iota(ids.begin(), ids.end(), 0);
        const uint64_t bytes = ids.size() * b_.kvBlockBytes(KvDType::F16);
        std::vector<uint8_t> host(bytes);
        b_.registerHostMemory(host.data(), bytes);  // as the engine's RAM tier is
        if (const Status st = b_.copyBlocksToHost(ids, host.data()); !st.ok()) {
            std::fprintf(stderr, "restore: %s\n", st.error().toString().c_str());
            return;
        }
        std::vector<double> times;
        for (int i = 0; i < 3; ++i) {
            const auto t1 = Clock::now();
            if (const Status st = b_.copyBlocksFromHost(ids, host.data()); !st.ok()) {
                std::fprintf(stderr, "restore: %s\n", st.error().toString().c_str());
                return;
            }
            times.push_back(ms(t1, Clock::now()));
        }
        const double restore = median(times);
        b_.unregisterHostMemory(host.data());
        record("32k prefix: recompute", recompute, "ms");
        record("32k prefix: restore from RAM", restore, "ms",
               "(" + std::to_string(bytes / (restore * 1e-3) / 1e9).substr(0, 5) + " GB/s, " +
                   std::to_string(recompute / restore).substr(0, 5) + "x faster)");
    }

private:
    Args a_;
    Backend& b_;
    const ModelConfig& c_;
    uint64_t weightBytes_;
    std::ofstream json_;
    int blocksPer_ = 64;
    KvDType kv_ = KvDType::F16;
};

}  // namespace

int main(int argc, char** argv) {
    Args a;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--shape") a.shape = v;
        else if (k == "--mix") a.mix = v;
        else if (k == "--dir") a.dir = v;
        else if (k == "--json") a.json = v;
        else if (k == "--tests") a.tests = v;
        else if (k == "--model") a.model = v;
        else if (k == "--bandwidth") a.bandwidth = std::atof(v.c_str()) * 1e12;
        else if (k == "--batch-invariant") a.batchInvariant = v == "1";
        else if (k == "--keep") a.keep = v == "1";
        else if (k == "--seqs") a.seqs = intList(v);
        else if (k == "--verify-tokens") a.verifyTokens = intList(v);
        else if (k == "--logits-out") a.logitsOut = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", k.c_str());
            return 2;
        }
    }
    std::string path = a.model;
    if (path.empty()) {
        auto shape = bench::shapeByName(a.shape);
        if (!shape) {
            std::fprintf(stderr, "%s\n", shape.error().message.c_str());
            return 2;
        }
        path = a.dir + "/hearth-bench-" + a.shape + "-" + a.mix + ".gguf";
        const auto t0 = Clock::now();
        auto n = bench::writeRandomModel(*shape, a.mix, path, std::max(2u, std::thread::hardware_concurrency()));
        if (!n) {
            std::fprintf(stderr, "generate: %s\n", n.error().message.c_str());
            return 1;
        }
        std::printf("generated %s (%.2f GB) in %.1f s\n", path.c_str(), *n / 1e9, ms(t0, Clock::now()) / 1e3);
    }
    auto file = GgufFile::open(path);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().message.c_str());
        return 1;
    }
    auto cfg = ModelConfig::fromGguf(**file);
    if (!cfg) {
        std::fprintf(stderr, "%s\n", cfg.error().message.c_str());
        return 1;
    }
    EngineConfig ec;
    ec.placement.devices = {0};
    ec.maxBatchTokens = 2048;
    ec.batchInvariant = a.batchInvariant;
    if (a.batchInvariant) ec.contextLength = 4096;  // sizes the fixed attention partitions (8 blocks)
    const auto t0 = Clock::now();
    auto backend = createBackend(ec, *file, *cfg);
    if (!backend) {
        std::fprintf(stderr, "backend: %s\n", backend.error().toString().c_str());
        return 1;
    }
    const uint32_t blocks = 4096;
    if (Status st = (*backend)->allocateKv(blocks, KvDType::F16); !st.ok()) {
        std::fprintf(stderr, "KV: %s\n", st.error().toString().c_str());
        return 1;
    }
    const auto stats = (*backend)->memoryStats();
    // Bytes a decode step reads: every weight but the embedding table (one row of it).
    uint64_t weightBytes = stats[0].weights;
    if (const auto* emb = (*file)->findTensor("token_embd.weight"); emb && (*file)->findTensor("output.weight"))
        weightBytes -= emb->byteSize;
    std::printf("loaded %s on %s in %.1f s: weights %.2f GB (%.2f GB read per token), KV pool %.2f GB\n", path.c_str(),
                stats[0].name.c_str(), ms(t0, Clock::now()) / 1e3, stats[0].weights / 1e9, weightBytes / 1e9, stats[0].kvPool / 1e9);
    Bench b(a, **backend, *cfg, weightBytes);
    auto want = [&](const char* t) { return a.tests.find(t) != std::string::npos; };
    if (want("decode")) b.runDecode1();
    if (want("pp512")) b.runPrefill512();
    if (want("agg")) b.runAggregate();
    if (want("verify")) b.runVerify();
    if (want("kv")) b.runKvCompare(blocks);
    if (want("restore")) b.runRestore();
    if (want("logits")) {
        if (a.logitsOut.empty()) std::fprintf(stderr, "logits: --logits-out FILE is needed\n");
        else b.runLogits();
    }
    if (a.model.empty() && !a.keep) std::remove(path.c_str());
    return 0;
}
