// The searches walk the inverse scale t upwards through a window. Between two "events" (values of
// t where some t * x[i] crosses a half-integer) the rounded vector q is constant, so visiting every
// event visits every distinct rounding in the window. Each event changes one q[i] by one, which
// updates the least-squares sums in O(1); the best state is kept. A few rounds of "re-round with the
// fitted scale, refit" then polish the winner.
#include "quant/ScaleSearch.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace hearth::quant {
namespace {

struct Event {
    float t;
    int i;
};

constexpr int kMaxN = 32;
constexpr int kMaxEvents = 4096;

bool byT(const Event& a, const Event& b) { return a.t < b.t; }

// Events for element magnitude |v| > 0 whose level grows from `from` up to `limit` (levels
// counted in magnitude) while t stays below tHi.
int addEvents(Event* ev, int count, int i, float mag, int from, int limit, float tHi) {
    for (int k = from; k < limit && count < kMaxEvents; ++k) {
        const float t = (static_cast<float>(k) + 0.5f) / mag;
        if (t > tHi) break;
        ev[count++] = {t, i};
    }
    return count;
}

}  // namespace

void importanceWeights(const float* x, int n, float rms, Weighting kind, float* w) {
    for (int i = 0; i < n; ++i) {
        switch (kind) {
            case Weighting::Uniform: w[i] = 1.0f; break;
            case Weighting::RmsPlusAbs: w[i] = rms + std::fabs(x[i]); break;
            case Weighting::Abs: w[i] = std::fabs(x[i]); break;
            case Weighting::Square: w[i] = x[i] * x[i]; break;
        }
    }
}

float rmsOf(const float* x, int n) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += static_cast<double>(x[i]) * x[i];
    return n > 0 ? static_cast<float>(std::sqrt(s / n)) : 0.0f;
}

float symmetricError(const float* x, const float* w, int n, float scale, const int8_t* q) {
    float e = 0;
    for (int i = 0; i < n; ++i) {
        const float d = x[i] - scale * static_cast<float>(q[i]);
        e += (w ? w[i] : 1.0f) * d * d;
    }
    return e;
}

float affineError(const float* x, const float* w, int n, float scale, float offset, const uint8_t* q) {
    float e = 0;
    for (int i = 0; i < n; ++i) {
        const float d = x[i] - scale * static_cast<float>(q[i]) - offset;
        e += (w ? w[i] : 1.0f) * d * d;
    }
    return e;
}

void roundSymmetric(const float* x, int n, float scale, int qlo, int qhi, int8_t* q) {
    const float inv = scale != 0 ? 1.0f / scale : 0.0f;
    for (int i = 0; i < n; ++i) q[i] = static_cast<int8_t>(clampInt(nearestInt(x[i] * inv), qlo, qhi));
}

void roundAffine(const float* x, int n, float scale, float offset, int qmax, uint8_t* q) {
    const float inv = scale != 0 ? 1.0f / scale : 0.0f;
    for (int i = 0; i < n; ++i) q[i] = static_cast<uint8_t>(clampInt(nearestInt((x[i] - offset) * inv), 0, qmax));
}

float fitSymmetric(const float* x, const float* w, int n, int qlo, int qhi, float window, int8_t* q) {
    float amax = 0, vmax = 0;
    for (int i = 0; i < n; ++i)
        if (std::fabs(x[i]) > amax) amax = std::fabs(x[i]), vmax = x[i];
    if (amax < 1e-30f || n > kMaxN) {
        std::memset(q, 0, static_cast<size_t>(n));
        return 0;
    }
    // Orient the data so that its largest magnitude lies on the longer side of [qlo, qhi].
    const float sign = (-qlo > qhi && vmax > 0) ? -1.0f : 1.0f;
    float y[kMaxN], wt[kMaxN];
    for (int i = 0; i < n; ++i) y[i] = sign * x[i], wt[i] = w ? w[i] : 1.0f;
    const float ends = static_cast<float>(sign * vmax < 0 ? -qlo : qhi);
    const float tLo = ends * (1.0f - window) / amax;
    const float tHi = ends * (1.0f + window) / amax;

    int8_t cur[kMaxN], best[kMaxN];
    double sxq = 0, sqq = 0;
    static thread_local Event ev[kMaxEvents];
    int ne = 0;
    for (int i = 0; i < n; ++i) {
        const int qi = clampInt(nearestInt(tLo * y[i]), qlo, qhi);
        cur[i] = static_cast<int8_t>(qi);
        sxq += static_cast<double>(wt[i]) * y[i] * qi;
        sqq += static_cast<double>(wt[i]) * qi * qi;
        const float mag = std::fabs(y[i]);
        if (mag > 0) ne = addEvents(ev, ne, i, mag, std::abs(qi), y[i] < 0 ? -qlo : qhi, tHi);
    }
    std::sort(ev, ev + ne, byT);
    double bestScore = sqq > 0 ? sxq * sxq / sqq : -1.0;
    std::memcpy(best, cur, static_cast<size_t>(n));
    for (int e = 0; e < ne; ++e) {
        const int i = ev[e].i;
        const int oldQ = cur[i];
        const int newQ = oldQ + (y[i] < 0 ? -1 : 1);
        cur[i] = static_cast<int8_t>(newQ);
        sxq += static_cast<double>(wt[i]) * y[i] * (newQ - oldQ);
        sqq += static_cast<double>(wt[i]) * (newQ * newQ - oldQ * oldQ);
        if (e + 1 < ne && ev[e + 1].t == ev[e].t) continue;
        if (sqq > 0 && sxq * sxq / sqq > bestScore) {
            bestScore = sxq * sxq / sqq;
            std::memcpy(best, cur, static_cast<size_t>(n));
        }
    }
    auto fitOf = [&](const int8_t* qq, double& score) {
        double a = 0, b = 0;
        for (int i = 0; i < n; ++i) a += static_cast<double>(wt[i]) * y[i] * qq[i], b += static_cast<double>(wt[i]) * qq[i] * qq[i];
        score = b > 0 ? a * a / b : -1.0;
        return b > 0 ? static_cast<float>(a / b) : 0.0f;
    };
    double score;
    float s = fitOf(best, score);
    for (int round = 0; round < 3 && s != 0; ++round) {
        roundSymmetric(y, n, s, qlo, qhi, cur);
        double sc;
        const float s2 = fitOf(cur, sc);
        if (sc <= score * (1 + 1e-12)) break;
        score = sc, s = s2;
        std::memcpy(best, cur, static_cast<size_t>(n));
    }
    std::memcpy(q, best, static_cast<size_t>(n));
    return sign * s;
}

namespace {

struct AffineSums {
    double sw = 0, sq = 0, sqq = 0, sx = 0, sxq = 0, sxx = 0;
    void add(double w, double x, double q, double sgn) {
        sq += sgn * w * q, sqq += sgn * w * q * q, sxq += sgn * w * x * q;
    }
    // Least-squares (scale, offset) for the current sums and its weighted error.
    double solve(bool nonPositive, float& scale, float& offset) const {
        double s = 0, b = 0;
        const double det = sw * sqq - sq * sq;
        if (det > 1e-30 * sw * sqq && det > 0) {
            s = (sw * sxq - sq * sx) / det;
            b = (sqq * sx - sq * sxq) / det;
        } else {
            b = sw > 0 ? sx / sw : 0;
        }
        if (nonPositive && b > 0) {
            b = 0;
            s = sqq > 0 ? sxq / sqq : 0;
        }
        if (s < 0) {  // never happens for a sane fit; fall back to a flat block
            s = 0;
            b = sw > 0 ? sx / sw : 0;
            if (nonPositive && b > 0) b = 0;
        }
        scale = static_cast<float>(s), offset = static_cast<float>(b);
        return sxx - 2 * s * sxq - 2 * b * sx + s * s * sqq + 2 * s * b * sq + b * b * sw;
    }
};

}  // namespace

AffineFit fitAffine(const float* x, const float* w, int n, int qmax, bool offsetNonPositive, uint8_t* q) {
    float mn = x[0], mx = x[0];
    for (int i = 1; i < n; ++i) mn = std::min(mn, x[i]), mx = std::max(mx, x[i]);
    if (offsetNonPositive) mn = std::min(mn, 0.0f);
    std::memset(q, 0, static_cast<size_t>(n));
    if (!(mx - mn > 1e-30f) || n > kMaxN) {
        AffineFit f;
        f.offset = offsetNonPositive ? std::min(mn, 0.0f) : mn;
        if (offsetNonPositive && mx > 0 && n <= kMaxN) {  // all equal and positive: scale only
            f.offset = 0;
            f.scale = mx / static_cast<float>(qmax);
            for (int i = 0; i < n; ++i) q[i] = static_cast<uint8_t>(clampInt(nearestInt(x[i] / f.scale), 0, qmax));
        }
        return f;
    }
    const float range = mx - mn;
    const float window = qmax >= 15 ? 0.25f : 0.45f;
    const float tLo = static_cast<float>(qmax) * (1.0f - window) / range;
    const float tHi = static_cast<float>(qmax) * (1.0f + window) / range;

    AffineSums sums;
    uint8_t cur[kMaxN], best[kMaxN];
    static thread_local Event ev[kMaxEvents];
    int ne = 0;
    for (int i = 0; i < n; ++i) {
        const double wi = w ? w[i] : 1.0;
        const float v = x[i] - mn;
        const int qi = clampInt(nearestInt(tLo * v), 0, qmax);
        cur[i] = static_cast<uint8_t>(qi);
        sums.sw += wi, sums.sx += wi * x[i], sums.sxx += wi * x[i] * x[i];
        sums.add(wi, x[i], qi, 1.0);
        if (v > 0) ne = addEvents(ev, ne, i, v, qi, qmax, tHi);
    }
    std::sort(ev, ev + ne, byT);
    AffineFit fit;
    double bestErr = sums.solve(offsetNonPositive, fit.scale, fit.offset);
    std::memcpy(best, cur, static_cast<size_t>(n));
    for (int e = 0; e < ne; ++e) {
        const int i = ev[e].i;
        const double wi = w ? w[i] : 1.0;
        sums.add(wi, x[i], cur[i], -1.0);
        ++cur[i];
        sums.add(wi, x[i], cur[i], 1.0);
        if (e + 1 < ne && ev[e + 1].t == ev[e].t) continue;
        float s, b;
        const double err = sums.solve(offsetNonPositive, s, b);
        if (err < bestErr) {
            bestErr = err, fit.scale = s, fit.offset = b;
            std::memcpy(best, cur, static_cast<size_t>(n));
        }
    }
    // Polish: re-round with the fitted scale and offset, refit, while the error drops.
    for (int round = 0; round < 4 && fit.scale > 0; ++round) {
        roundAffine(x, n, fit.scale, fit.offset, qmax, cur);
        AffineSums s2;
        for (int i = 0; i < n; ++i) {
            const double wi = w ? w[i] : 1.0;
            s2.sw += wi, s2.sx += wi * x[i], s2.sxx += wi * x[i] * x[i];
            s2.add(wi, x[i], cur[i], 1.0);
        }
        float s, b;
        const double err = s2.solve(offsetNonPositive, s, b);
        if (!(err < bestErr * (1 - 1e-9))) break;
        bestErr = err, fit.scale = s, fit.offset = b;
        std::memcpy(best, cur, static_cast<size_t>(n));
    }
    std::memcpy(q, best, static_cast<size_t>(n));
    return fit;
}

}  // namespace hearth::quant
