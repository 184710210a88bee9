#include "hub/FitEstimator.h"

#include <QRegularExpression>
#include <cmath>

namespace hearth::app {
namespace {
QString gib(qint64 bytes) { return QString::number(double(bytes) / double(1ll << 30), 'f', 1); }

int intKey(const QJsonObject& o, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (o.contains(n) && o.value(n).isDouble()) return o.value(n).toInt();
    return 0;
}
}  // namespace

FitEstimate FitEstimator::estimate(const FitRequest& r) {
    FitEstimate e;
    e.approximate = r.kvApproximate;
    e.weightBytes = std::max<qint64>(0, r.weightBytes);
    const double tokens = double(std::max(0, r.contextLength)) * std::max(1, r.parallelSequences);
    e.kvBytes = qint64(std::llround(std::max(0.0, r.kvBytesPerToken) * tokens));
    const int devices = std::max<int>(1, int(r.deviceFreeBytes.size()));
    e.overheadBytes = qint64(kPerDeviceOverhead) * devices + qint64(double(e.weightBytes) * kWeightOverheadFraction);
    e.requiredBytes = e.weightBytes + e.kvBytes + e.overheadBytes;
    if (r.deviceFreeBytes.isEmpty()) {
        e.availableBytes = qint64(r.hostAvailableBytes);
    } else {
        for (quint64 free : r.deviceFreeBytes) e.availableBytes += qint64(free);
    }
    e.fits = e.requiredBytes <= e.availableBytes;
    const QString where = r.deviceFreeBytes.isEmpty() ? QStringLiteral("RAM")
                          : devices == 1             ? QStringLiteral("GPU memory")
                                                     : QString("memory of %1 GPUs").arg(devices);
    e.summary = QString("%1%2 GiB of %3 GiB free %4 (weights %5, KV %6, other %7)")
                    .arg(e.approximate ? "about " : "", gib(e.requiredBytes), gib(e.availableBytes), where,
                         gib(e.weightBytes), gib(e.kvBytes), gib(e.overheadBytes));
    return e;
}

double FitEstimator::kvBytesPerTokenFromConfig(const QJsonObject& configIn, double bytesPerElement) {
    QJsonObject config = configIn;
    if (!config.contains("num_hidden_layers") && !config.contains("n_layer")) {
        for (const char* nested : {"text_config", "llm_config", "language_config"})
            if (configIn.value(nested).isObject()) {
                config = configIn.value(nested).toObject();
                break;
            }
    }
    const int layers = intKey(config, {"num_hidden_layers", "n_layer", "num_layers"});
    const int heads = intKey(config, {"num_attention_heads", "n_head"});
    int kvHeads = intKey(config, {"num_key_value_heads", "n_head_kv", "multi_query_group_num"});
    if (kvHeads == 0) kvHeads = heads;  // no GQA key: plain multi-head attention
    int headDim = intKey(config, {"head_dim"});
    const int hidden = intKey(config, {"hidden_size", "n_embd", "d_model"});
    if (headDim == 0 && heads > 0) headDim = hidden / heads;
    if (layers <= 0 || kvHeads <= 0 || headDim <= 0) return 0;
    return 2.0 * layers * kvHeads * headDim * bytesPerElement;
}

double FitEstimator::kvBytesPerTokenGuess(quint64 parameterCount, double bytesPerElement) {
    return double(parameterCount) * 1.6e-5 * (bytesPerElement / 2.0);
}

quint64 FitEstimator::parameterCountFromName(const QString& name) {
    // "8x7B" (experts), "0.5B", "135M"; the size must stand alone between separators.
    static const QRegularExpression re(R"((?<![A-Za-z0-9.])(?:(\d+)x)?(\d+(?:\.\d+)?)([BbMm])(?![A-Za-z0-9]))");
    quint64 best = 0;
    auto it = re.globalMatch(name);
    while (it.hasNext()) {
        const auto m = it.next();
        const double experts = m.captured(1).isEmpty() ? 1.0 : m.captured(1).toDouble();
        const double scale = m.captured(3).toUpper() == "B" ? 1e9 : 1e6;
        best = std::max(best, quint64(std::llround(experts * m.captured(2).toDouble() * scale)));
    }
    return best;
}

quint64 FitEstimator::parameterCountFromSize(qint64 bytes, double bitsPerWeight) {
    if (bytes <= 0 || bitsPerWeight <= 0) return 0;
    return quint64(std::llround(double(bytes) * 8.0 / bitsPerWeight));
}

}  // namespace hearth::app
