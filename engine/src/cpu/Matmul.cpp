// Y = X * W^T from the weight blocks: activations quantized once per call into the weight type's
// partner format (quant/KernelSet.h), then the output split into tiles that the thread pool's
// workers take in turn. Decode-shaped calls (a few tokens) split rows only; prefill-shaped calls
// use row x token tiles sized so that a tile's weights and activations stay in the core's L2,
// and the micro-kernels reuse every weight block across 4 tokens in registers.
#include "cpu/Matmul.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "quant/Dequantize.h"
#include "quant/KernelSet.h"

namespace hearth::cpu {
namespace {

constexpr int64_t kParallelQuantizeElements = 1 << 15;  // below this, quantizing on one thread is cheaper
constexpr int64_t kSingleTaskMacs = 1 << 16;            // below this, splitting costs more than it saves
constexpr uint64_t kTileBytes = 192 * 1024;             // weights (or activations) of one tile

const quant::TypeKernels* kernelsFor(TensorType t) {
    if (const auto* k = quant::activeKernels().find(t)) return k;
    return quant::scalarKernels()->find(t);
}

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

struct TilePlan {
    int64_t rowTile = 0, tokTile = 0, rowTiles = 0, tokTiles = 0;
    int64_t tasks() const { return rowTiles * tokTiles; }
};

TilePlan planTiles(int64_t rows, int64_t cols, int64_t nTok, uint64_t wStride, uint64_t actStride, int threads) {
    TilePlan p;
    if (rows * cols * nTok < kSingleTaskMacs || threads == 1) {
        p.rowTile = rows, p.tokTile = nTok;
    } else if (nTok < 16) {
        // Decode: every task streams its own rows once for all tokens; several tasks per thread
        // even out the finishing times.
        p.tokTile = nTok;
        p.rowTile = std::max<int64_t>(16, roundUp((rows + 4 * threads - 1) / (4 * threads), 16));
    } else {
        p.rowTile = std::clamp<int64_t>(static_cast<int64_t>(kTileBytes / std::max<uint64_t>(wStride, 1)), 16, 256);
        p.rowTile = p.rowTile / 16 * 16;
        p.tokTile = std::clamp<int64_t>(static_cast<int64_t>(kTileBytes / std::max<uint64_t>(actStride, 1)), 8, 256);
        p.tokTile = p.tokTile / 4 * 4;
        // Enough tasks to keep every thread busy to the end.
        while (((rows + p.rowTile - 1) / p.rowTile) * ((nTok + p.tokTile - 1) / p.tokTile) < 4 * threads) {
            if (p.rowTile > 16) p.rowTile = std::max<int64_t>(16, p.rowTile / 2 / 16 * 16);
            else if (p.tokTile > 8) p.tokTile = std::max<int64_t>(8, p.tokTile / 2 / 4 * 4);
            else break;
        }
    }
    p.rowTile = std::min(p.rowTile, rows);
    p.tokTile = std::min(p.tokTile, nTok);
    p.rowTiles = (rows + p.rowTile - 1) / p.rowTile;
    p.tokTiles = (nTok + p.tokTile - 1) / p.tokTile;
    return p;
}

struct MatmulTask {
    const quant::TypeKernels* k;
    const WeightView* w;
    uint64_t wStride;
    const uint8_t* act;
    uint64_t actStride;
    const float* x;
    int64_t nTokens;
    float* y;
    TilePlan plan;
    uint8_t* work;        // workBytes per worker, one slice each
    uint64_t workBytes;
};

}  // namespace

MatmulScratch::~MatmulScratch() { std::free(data); }

void* MatmulScratch::reserve(uint64_t n) {
    if (n > bytes) {
        std::free(data);
        const uint64_t rounded = (n + 63) / 64 * 64;
        data = std::aligned_alloc(64, rounded);
        bytes = data ? rounded : 0;
    }
    return data;
}

bool matmulSupports(TensorType t) { return kernelsFor(t) != nullptr; }

void dequantizeRow(const WeightView& w, int64_t row, float* out) {
    const auto rb = rowBytes(w.type, static_cast<uint64_t>(w.cols));
    if (!rb || !quant::dequantize(w.type, static_cast<const uint8_t*>(w.data) + row * *rb, out, w.cols))
        std::fill(out, out + w.cols, std::numeric_limits<float>::quiet_NaN());
}

void matmul(const WeightView& w, const float* x, int64_t nTokens, float* y, ThreadPool& pool, MatmulScratch& scratch) {
    if (nTokens <= 0 || w.rows <= 0) return;
    const quant::TypeKernels* k = kernelsFor(w.type);
    const auto rb = rowBytes(w.type, static_cast<uint64_t>(w.cols));
    if (!k || !rb || w.cols <= 0) {  // callers check matmulSupports(); make a violation visible
        std::fill(y, y + nTokens * w.rows, std::numeric_limits<float>::quiet_NaN());
        return;
    }
    MatmulTask task{k, &w, *rb, nullptr, 0, x, nTokens, y, {}, nullptr, 0};
    // Scratch: the quantized activations, then one work slice per worker (prefill panels).
    task.actStride = k->quantizeAct ? k->actBytes(w.cols) : 0;
    const uint64_t actBytes = (task.actStride * static_cast<uint64_t>(nTokens) + 63) / 64 * 64;
    task.workBytes = k->workBytes && nTokens >= 8 ? k->workBytes(w.cols) : 0;
    auto* base = static_cast<uint8_t*>(scratch.reserve(actBytes + task.workBytes * static_cast<uint64_t>(pool.size()) + 64));
    if (!base) {  // out of memory: make it visible rather than crash
        std::fill(y, y + nTokens * w.rows, std::numeric_limits<float>::quiet_NaN());
        return;
    }
    task.work = task.workBytes ? base + actBytes : nullptr;
    if (k->quantizeAct) {
        auto* buf = base;
        task.act = buf;
        if (nTokens > 1 && nTokens * w.cols >= kParallelQuantizeElements && pool.size() > 1) {
            const MatmulTask* t = &task;
            pool.run(nTokens, [t, buf](int64_t i, int) {
                t->k->quantizeAct(t->x + i * t->w->cols, t->w->cols, buf + i * t->actStride);
            });
        } else {
            for (int64_t i = 0; i < nTokens; ++i) k->quantizeAct(x + i * w.cols, w.cols, buf + i * task.actStride);
        }
    } else {
        task.act = reinterpret_cast<const uint8_t*>(x);
        task.actStride = static_cast<uint64_t>(w.cols) * sizeof(float);
    }
    task.plan = planTiles(w.rows, w.cols, nTokens, task.wStride, task.actStride, pool.size());
    const MatmulTask* t = &task;
    pool.run(task.plan.tasks(), [t](int64_t i, int worker) {
        const TilePlan& p = t->plan;
        const int64_t r0 = (i % p.rowTiles) * p.rowTile, t0 = (i / p.rowTiles) * p.tokTile;
        quant::TileArgs a;
        a.w = static_cast<const uint8_t*>(t->w->data) + r0 * t->wStride;
        a.wStride = t->wStride;
        a.act = t->act + t0 * t->actStride;
        a.actStride = t->actStride;
        a.cols = t->w->cols;
        a.nRows = static_cast<int>(std::min(p.rowTile, t->w->rows - r0));
        a.nTok = static_cast<int>(std::min(p.tokTile, t->nTokens - t0));
        a.y = t->y + t0 * t->w->rows + r0;
        a.ldy = t->w->rows;
        a.work = t->work ? t->work + static_cast<uint64_t>(worker) * t->workBytes : nullptr;
        a.workBytes = t->workBytes;
        t->k->tile(a);
    });
}

}  // namespace hearth::cpu
