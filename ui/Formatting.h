#pragma once
// Display forms shared by the pages: sizes, rates, counts, durations, in the UI's locale.
#include <QString>
#include <QtGlobal>

namespace hearth::ui {

QString formatBytes(quint64 bytes);             // "1.5 GiB"
QString formatRate(double bytesPerSecond);      // "12.3 MiB/s"
QString formatDuration(qint64 seconds);         // "1:02:03", "4:05"; "—" when negative (unknown)
QString formatCount(quint64 n);                 // "1.2M", "3.4k", "999"
QString formatParameters(quint64 parameters);   // "7.2B", "260K"
QString formatPercent(double fraction);         // 0.123 -> "12.3 %"

}  // namespace hearth::ui
