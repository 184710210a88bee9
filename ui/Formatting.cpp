#include "Formatting.h"

#include <QLocale>
#include <cmath>

namespace hearth::ui {

QString formatBytes(quint64 bytes) {
    return QLocale().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeIecFormat);
}

QString formatRate(double bytesPerSecond) {
    if (!(bytesPerSecond > 0)) return QStringLiteral("—");
    return formatBytes(quint64(bytesPerSecond)) + QStringLiteral("/s");
}

QString formatDuration(qint64 seconds) {
    if (seconds < 0) return QStringLiteral("—");
    const qint64 h = seconds / 3600, m = (seconds / 60) % 60, s = seconds % 60;
    if (h > 0) return QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QChar('0')).arg(s, 2, 10, QChar('0'));
    return QStringLiteral("%1:%2").arg(m).arg(s, 2, 10, QChar('0'));
}

static QString scaled(double v, const char* const suffixes[], int count, double step) {
    int i = 0;
    while (std::fabs(v) >= step && i + 1 < count) {
        v /= step;
        ++i;
    }
    const int decimals = (i == 0 || v >= 100) ? 0 : 1;
    return QLocale().toString(v, 'f', decimals) + QLatin1String(suffixes[i]);
}

QString formatCount(quint64 n) {
    static const char* const s[] = {"", "k", "M", "B"};
    return scaled(double(n), s, 4, 1000.0);
}

QString formatParameters(quint64 parameters) {
    static const char* const s[] = {"", "K", "M", "B", "T"};
    return scaled(double(parameters), s, 5, 1000.0);
}

QString formatPercent(double fraction) {
    return QLocale().toString(fraction * 100.0, 'f', 1) + QStringLiteral(" %");
}

}  // namespace hearth::ui
