#include "cpu/CpuAttention.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/Half.h"
#include "cpu/CpuOps.h"

namespace hearth::cpu {
namespace {

// Flattened (token -> slice) map so tasks can be indexed by token.
struct TokenSlot {
    int32_t slice;
    int32_t pos;
};

std::vector<TokenSlot> tokenSlots(const ForwardBatch& b) {
    std::vector<TokenSlot> slots(b.tokens.size());
    for (size_t s = 0; s < b.seqs.size(); ++s)
        for (int32_t i = 0; i < b.seqs[s].numTokens; ++i)
            slots[b.seqs[s].tokenBegin + i] = {static_cast<int32_t>(s), b.seqs[s].startPos + i};
    return slots;
}

void writeRow(const float* src, uint32_t n, KvDType dt, uint8_t* dst) {
    if (dt == KvDType::F16) {
        auto* d = reinterpret_cast<f16_t*>(dst);
        for (uint32_t i = 0; i < n; ++i) d[i] = f32ToF16(src[i]);
        return;
    }
    // Q8_0: blocks of 32 with an f16 scale d = amax / 127 and int8 values round(x / d).
    for (uint32_t b = 0; b < n / 32; ++b) {
        const float* x = src + b * 32;
        float amax = 0;
        for (int i = 0; i < 32; ++i) amax = std::max(amax, std::fabs(x[i]));
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        uint8_t* blk = dst + b * 34;
        const f16_t dh = f32ToF16(d);
        std::memcpy(blk, &dh, 2);
        for (int i = 0; i < 32; ++i) blk[2 + i] = static_cast<uint8_t>(static_cast<int8_t>(std::lround(x[i] * id)));
    }
}

void readRow(const uint8_t* src, uint32_t n, KvDType dt, float* out) {
    if (dt == KvDType::F16) {
        const float* tab = f16Table();
        const auto* s = reinterpret_cast<const f16_t*>(src);
        for (uint32_t i = 0; i < n; ++i) out[i] = tab[s[i]];
        return;
    }
    for (uint32_t b = 0; b < n / 32; ++b) {
        const uint8_t* blk = src + b * 34;
        f16_t dh;
        std::memcpy(&dh, blk, 2);
        const float d = f16ToF32(dh);
        for (int i = 0; i < 32; ++i) out[b * 32 + i] = d * static_cast<float>(static_cast<int8_t>(blk[2 + i]));
    }
}

}  // namespace

void CpuAttention::storeKv(const ForwardBatch& b, const float* k, const float* v, uint8_t* pool, const KvLayout& L,
                           uint32_t layer, ThreadPool& threads) {
    const auto slots = tokenSlots(b);
    const uint32_t D = L.headDim, H = L.nKvHeads;
    threads.run(static_cast<int64_t>(slots.size()), [&](int64_t t, int) {
        const SeqSlice& s = b.seqs[slots[t].slice];
        const int32_t pos = slots[t].pos;
        const int32_t block = b.blockTables[s.blockBegin + pos / kBlockSize];
        const uint32_t slot = static_cast<uint32_t>(pos % kBlockSize);
        uint8_t* base = pool + static_cast<uint64_t>(block) * L.blockBytes();
        for (uint32_t h = 0; h < H; ++h) {
            writeRow(k + t * H * D + h * D, D, L.dtype, base + L.kOffset(layer, h, slot));
            writeRow(v + t * H * D + h * D, D, L.dtype, base + L.vOffset(layer, h, slot));
        }
    });
}

void CpuAttention::attend(const ForwardBatch& b, const float* q, const uint8_t* pool, const KvLayout& L,
                          uint32_t layer, const ModelConfig& c, float* out, ThreadPool& threads) {
    const auto slots = tokenSlots(b);
    const uint32_t D = c.headDim, Hkv = c.nHeadKv, G = c.gqaGroup(), Hq = c.nHead;
    int32_t maxCtx = 0;
    for (const auto& s : b.seqs) maxCtx = std::max(maxCtx, s.startPos + s.numTokens);
    if (scratch_.size() < static_cast<size_t>(threads.size())) scratch_.resize(threads.size());
    for (auto& w : scratch_) {
        if (w.scores.size() < static_cast<size_t>(maxCtx) * G) w.scores.resize(static_cast<size_t>(maxCtx) * G);
        w.qf.resize(static_cast<size_t>(G) * D);
        w.acc.resize(static_cast<size_t>(G) * D);
        w.row.resize(D);
    }
    const float scale = 1.0f / std::sqrt(static_cast<float>(D));
    const float* tab = f16Table();
    // One task = one token × one KV head, computing that head's whole query group so each K/V row
    // is read once per group.
    threads.run(static_cast<int64_t>(slots.size()) * Hkv, [&](int64_t task, int worker) {
        WorkerScratch& w = scratch_[worker];
        const int64_t t = task / Hkv;
        const uint32_t kvh = static_cast<uint32_t>(task % Hkv);
        const SeqSlice& s = b.seqs[slots[t].slice];
        const int32_t n = slots[t].pos + 1;  // causal: positions 0..pos
        for (uint32_t g = 0; g < G; ++g) {
            const float* qh = q + t * Hq * D + (kvh * G + g) * D;
            for (uint32_t i = 0; i < D; ++i) w.qf[g * D + i] = tab[f32ToF16(qh[i])];
        }
        for (int32_t j = 0; j < n; ++j) {
            const int32_t block = b.blockTables[s.blockBegin + j / kBlockSize];
            const uint8_t* kr = pool + static_cast<uint64_t>(block) * L.blockBytes() +
                                L.kOffset(layer, kvh, static_cast<uint32_t>(j % kBlockSize));
            readRow(kr, D, L.dtype, w.row.data());
            for (uint32_t g = 0; g < G; ++g) {
                const float* qg = w.qf.data() + g * D;
                float dot = 0;
                for (uint32_t i = 0; i < D; ++i) dot += w.row[i] * qg[i];
                w.scores[static_cast<size_t>(g) * n + j] = dot * scale;
            }
        }
        std::fill(w.acc.begin(), w.acc.end(), 0.0f);
        for (uint32_t g = 0; g < G; ++g) softmax(w.scores.data() + static_cast<size_t>(g) * n, n);
        for (int32_t j = 0; j < n; ++j) {
            const int32_t block = b.blockTables[s.blockBegin + j / kBlockSize];
            const uint8_t* vr = pool + static_cast<uint64_t>(block) * L.blockBytes() +
                                L.vOffset(layer, kvh, static_cast<uint32_t>(j % kBlockSize));
            readRow(vr, D, L.dtype, w.row.data());
            for (uint32_t g = 0; g < G; ++g) {
                const float p = w.scores[static_cast<size_t>(g) * n + j];
                float* acc = w.acc.data() + g * D;
                for (uint32_t i = 0; i < D; ++i) acc[i] += p * w.row[i];
            }
        }
        for (uint32_t g = 0; g < G; ++g)
            std::memcpy(out + t * Hq * D + (kvh * G + g) * D, w.acc.data() + g * D, D * sizeof(float));
    });
}

}  // namespace hearth::cpu
