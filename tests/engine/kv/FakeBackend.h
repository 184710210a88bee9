#pragma once
// Test doubles for the serving core: a Backend whose "KV" is, per position, (token, position, hash
// of the whole history up to it), and whose logits are a pseudo-random function of that hash. So a
// sequence's output depends only on its own token history -- exactly, without floating point --
// and reading KV through a wrong or stale block changes the output or fails the step. This makes
// batch invariance, prefix reuse, tier copies and preemption checkable token for token.
//
// setPattern() makes outputs repetitive, as text is: at a share of positions (picked by the history
// hash) the logits depend only on the last token, so greedy runs fall into short cycles that prompt
// lookup can predict; a salt changes the other positions (a draft model that agrees only partly).
//
// Also a FakeTokenizer: token i < 52 is one letter, 52..61 digits, 62 a space, 63 the first byte
// of "é" and no id its second byte (so tokens 63 exercise the UTF-8 hold-back and U+FFFD flush).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backend/Backend.h"
#include "hearth/tokenizer.h"

namespace hearth::test {

class FakeBackend final : public Backend {
public:
    struct Slot {
        int32_t token = -1;
        int32_t pos = -1;
        uint64_t hash = 0;
    };
    static_assert(sizeof(Slot) == 16);

    explicit FakeBackend(uint32_t vocab = 64, uint64_t freeBytes = 1ull << 30) : vocab_(vocab), free_(freeBytes) {}

    std::string name() const override { return "Fake"; }

    // Host memory registrations, process-wide (the backend dies with its engine, maybe on another
    // thread): (pointer, bytes) for a registration, (pointer, 0) for an unregistration.
    static inline std::mutex hostLogMutex;
    static inline std::vector<std::pair<void*, uint64_t>> hostLog;
    void registerHostMemory(void* p, uint64_t bytes) override {
        std::lock_guard<std::mutex> lock(hostLogMutex);
        hostLog.emplace_back(p, bytes);
    }
    void unregisterHostMemory(void* p) override {
        std::lock_guard<std::mutex> lock(hostLogMutex);
        hostLog.emplace_back(p, 0);
    }
    uint64_t kvBlockBytes(KvDType) const override { return kBlockSize * sizeof(Slot); }
    Status allocateKv(uint32_t numBlocks, KvDType) override {
        if (!slots_.empty()) return makeError(ErrorCode::Internal, "KV allocated twice");
        slots_.assign(static_cast<size_t>(numBlocks) * kBlockSize, Slot{});
        numBlocks_ = numBlocks;
        return Status::success();
    }
    uint32_t numKvBlocks() const override { return numBlocks_; }

    static uint64_t mix(uint64_t h, uint64_t v) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h ^= h >> 31;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
        return h;
    }

    Status forward(const ForwardBatch& batch, std::vector<float>& logits) override {
        if (failNext_.exchange(false)) return makeError(ErrorCode::Internal, "injected backend failure");
        HEARTH_TRY(batch.validate(numBlocks_, vocab_));
        if (const int us = delayUs_ + tokenDelayUs_ * batch.numTokens(); us > 0)
            std::this_thread::sleep_for(std::chrono::microseconds(us));
        logits.assign(batch.logitRows.size() * vocab_, 0.0f);
        size_t row = 0;
        for (const auto& s : batch.seqs) {
            const int32_t* table = batch.blockTables.data() + s.blockBegin;
            auto slotAt = [&](int32_t pos) -> Slot& {
                return slots_[static_cast<size_t>(table[pos / kBlockSize]) * kBlockSize + pos % kBlockSize];
            };
            for (int32_t p = 0; p < s.startPos; ++p)
                if (slotAt(p).pos != p)
                    return makeError(ErrorCode::Internal, "fake backend: KV for position " + std::to_string(p) + " is missing");
            for (int32_t i = 0; i < s.numTokens; ++i) {
                const int32_t pos = s.startPos + i;
                const TokenId tok = batch.tokens[s.tokenBegin + i];
                const uint64_t prev = pos == 0 ? 0x1234567ull : slotAt(pos - 1).hash;
                const uint64_t h = mix(mix(prev, static_cast<uint64_t>(tok)), static_cast<uint64_t>(pos));
                slotAt(pos) = Slot{tok, pos, h};
                if (row < batch.logitRows.size() && batch.logitRows[row] == s.tokenBegin + i) {
                    fillLogits(h, tok, logits.data() + row * vocab_);
                    ++row;
                }
            }
        }
        tokensComputed_ += static_cast<uint64_t>(batch.numTokens());
        ++forwards_;
        maxBatchTokens_ = std::max<uint64_t>(maxBatchTokens_, static_cast<uint64_t>(batch.numTokens()));
        maxBatchSeqs_ = std::max<uint64_t>(maxBatchSeqs_, batch.seqs.size());
        for (const auto& s : batch.seqs) maxSliceTokens_ = std::max<uint64_t>(maxSliceTokens_, static_cast<uint64_t>(s.numTokens));
        return Status::success();
    }

    Status copyBlocksToHost(std::span<const int32_t> blocks, uint8_t* host) override {
        for (size_t i = 0; i < blocks.size(); ++i)
            std::memcpy(host + i * kvBlockBytes(KvDType::F16), &slots_[static_cast<size_t>(blocks[i]) * kBlockSize],
                        kvBlockBytes(KvDType::F16));
        copiesOut_ += blocks.size();
        ++copyOutCalls_;
        return Status::success();
    }
    Status copyBlocksFromHost(std::span<const int32_t> blocks, const uint8_t* host) override {
        for (size_t i = 0; i < blocks.size(); ++i)
            std::memcpy(&slots_[static_cast<size_t>(blocks[i]) * kBlockSize], host + i * kvBlockBytes(KvDType::F16),
                        kvBlockBytes(KvDType::F16));
        copiesIn_ += blocks.size();
        ++copyInCalls_;
        return Status::success();
    }
    std::vector<DeviceMemoryStats> memoryStats() const override {
        DeviceMemoryStats d;
        d.name = "Fake";
        d.total = free_ * 2;
        d.free = free_;
        d.kvPool = numBlocks_ * kvBlockBytes(KvDType::F16);
        return {d};
    }
    uint32_t vocabSize() const override { return vocab_; }

    // Optional device sampling (greedy = argmax; otherwise softmax over all with temperature,
    // drawn by the row's uniform), like a GPU backend's.
    void setDeviceSampling(bool on) { deviceSampling_ = on; }
    bool canSampleOnDevice() const override { return deviceSampling_; }
    Status forwardSample(const ForwardBatch& batch, std::span<const RowSampling> rows,
                         std::vector<TokenId>& tokens) override {
        if (rows.size() != batch.logitRows.size()) return makeError(ErrorCode::Internal, "one sampling row per logit row");
        std::vector<float> logits;
        HEARTH_TRY(forward(batch, logits));
        tokens.clear();
        for (size_t r = 0; r < rows.size(); ++r) {
            float* l = logits.data() + r * vocab_;
            for (int32_t id : rows[r].banned)
                if (id >= 0 && static_cast<uint32_t>(id) < vocab_) l[id] = -INFINITY;
            TokenId best = 0;
            for (uint32_t v = 1; v < vocab_; ++v)
                if (l[v] > l[best]) best = static_cast<TokenId>(v);
            if (rows[r].temperature > 0) {
                std::vector<double> p(vocab_);
                double sum = 0;
                for (uint32_t v = 0; v < vocab_; ++v) sum += p[v] = std::exp((l[v] - l[best]) / rows[r].temperature);
                double cum = 0;
                for (uint32_t v = 0; v < vocab_; ++v) {
                    cum += p[v] / sum;
                    if (rows[r].uniform < cum) {
                        best = static_cast<TokenId>(v);
                        break;
                    }
                }
            }
            tokens.push_back(best);
        }
        ++deviceSampled_;
        return Status::success();
    }
    uint64_t deviceSampledSteps() const { return deviceSampled_; }

    // percent of positions use the two-token pattern; salt varies the rest (0, 0: plain hashing).
    void setPattern(int percent, uint64_t salt) {
        patternPercent_ = percent;
        salt_ = salt;
    }

    // The logits after `tok` at a position whose history hash is h.
    void fillLogits(uint64_t h, TokenId tok, float* out) const {
        uint64_t key = salt_ ? mix(h, salt_) : h;
        if (patternPercent_ > 0 && mix(h, 0x9a77e2ull ^ salt_) % 100 < static_cast<uint64_t>(patternPercent_))
            key = mix(0x77ull, static_cast<uint64_t>(tok));
        for (uint32_t v = 0; v < vocab_; ++v) out[v] = static_cast<float>(mix(key, v) >> 40) / static_cast<float>(1 << 24) * 8.0f;
    }

    // Greedy continuation of `tokens` by n tokens, computed directly (the reference for tests).
    std::vector<TokenId> reference(std::vector<TokenId> tokens, int n, const std::vector<TokenId>& banned = {}) const {
        std::vector<TokenId> out;
        uint64_t h = 0x1234567ull;
        for (size_t p = 0; p < tokens.size(); ++p) h = mix(mix(h, static_cast<uint64_t>(tokens[p])), p);
        std::vector<float> row(vocab_);
        for (int i = 0; i < n; ++i) {
            fillLogits(h, tokens.empty() ? -1 : tokens.back(), row.data());
            TokenId best = -1;
            float bestV = -1;
            for (uint32_t v = 0; v < vocab_; ++v) {
                if (std::find(banned.begin(), banned.end(), static_cast<TokenId>(v)) != banned.end()) continue;
                const float x = row[v];
                if (x > bestV) {
                    bestV = x;
                    best = static_cast<TokenId>(v);
                }
            }
            out.push_back(best);
            tokens.push_back(best);
            h = mix(mix(h, static_cast<uint64_t>(best)), tokens.size() - 1);
        }
        return out;
    }

    uint64_t tokensComputed() const { return tokensComputed_; }
    uint64_t forwards() const { return forwards_; }
    uint64_t maxBatchTokens() const { return maxBatchTokens_; }
    uint64_t maxBatchSeqs() const { return maxBatchSeqs_; }
    uint64_t maxSliceTokens() const { return maxSliceTokens_; }
    uint64_t copiesIn() const { return copiesIn_; }
    uint64_t copiesOut() const { return copiesOut_; }
    uint64_t copyInCalls() const { return copyInCalls_; }
    uint64_t copyOutCalls() const { return copyOutCalls_; }
    void failNextForward() { failNext_ = true; }
    void setDelayUs(int us) { delayUs_ = us; }
    void setTokenDelayUs(int us) { tokenDelayUs_ = us; }  // per token of the batch, on top

private:
    uint32_t vocab_;
    uint64_t free_;
    uint32_t numBlocks_ = 0;
    std::vector<Slot> slots_;
    std::atomic<uint64_t> tokensComputed_{0}, forwards_{0}, maxBatchTokens_{0}, maxBatchSeqs_{0}, maxSliceTokens_{0};
    std::atomic<uint64_t> copiesIn_{0}, copiesOut_{0}, copyInCalls_{0}, copyOutCalls_{0};
    std::atomic<bool> failNext_{false};
    bool deviceSampling_ = false;
    std::atomic<uint64_t> deviceSampled_{0};
    std::atomic<int> delayUs_{0}, tokenDelayUs_{0};
    int patternPercent_ = 0;
    uint64_t salt_ = 0;
};

class FakeTokenizer final : public Tokenizer {
public:
    explicit FakeTokenizer(TokenId eos = -1) : eos_(eos) {
        if (eos >= 0) eog_.push_back(eos);
    }
    std::vector<TokenId> encode(std::string_view text, TokenizeOptions) const override {
        std::vector<TokenId> out;
        for (char c : text) {
            if (c >= 'a' && c <= 'z') out.push_back(c - 'a');
            else if (c >= 'A' && c <= 'Z') out.push_back(26 + c - 'A');
            else if (c >= '0' && c <= '9') out.push_back(52 + c - '0');
            else out.push_back(62);
        }
        return out;
    }
    std::string decode(std::span<const TokenId> ids, bool) const override {
        std::string s;
        for (TokenId id : ids) s += tokenPiece(id);
        return s;
    }
    std::string tokenPiece(TokenId id) const override {
        if (id < 26) return std::string(1, static_cast<char>('a' + id));
        if (id < 52) return std::string(1, static_cast<char>('A' + id - 26));
        if (id < 62) return std::string(1, static_cast<char>('0' + id - 52));
        if (id == 62) return " ";
        return "\xC3";
    }
    int32_t vocabSize() const override { return 64; }
    TokenId bos() const override { return -1; }
    TokenId eos() const override { return eos_; }
    bool addsBos() const override { return false; }
    bool addsEos() const override { return false; }
    const std::vector<TokenId>& endOfGeneration() const override { return eog_; }
    TokenId findSpecial(std::string_view) const override { return -1; }
    std::string bosText() const override { return {}; }
    std::string eosText() const override { return {}; }
    uint64_t fingerprint() const override { return 42; }

private:
    TokenId eos_;
    std::vector<TokenId> eog_;
};

}  // namespace hearth::test
