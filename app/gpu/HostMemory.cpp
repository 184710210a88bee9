#include "gpu/HostMemory.h"

#include <QFile>
#include <QList>

namespace hearth::app {
namespace {
std::optional<quint64> fieldKb(const QByteArray& text, const QByteArray& name) {
    for (const QByteArray& line : text.split('\n')) {
        if (!line.startsWith(name + ':')) continue;
        const QList<QByteArray> parts = line.mid(name.size() + 1).simplified().split(' ');
        bool ok = false;
        const quint64 value = parts.value(0).toULongLong(&ok);
        if (!ok) return std::nullopt;
        const QByteArray unit = parts.value(1).toLower();
        return unit == "kb" || unit.isEmpty() ? value : std::optional<quint64>();
    }
    return std::nullopt;
}
}  // namespace

std::optional<HostMemory> HostMemory::parseMeminfo(const QByteArray& text) {
    const auto total = fieldKb(text, "MemTotal");
    auto available = fieldKb(text, "MemAvailable");
    if (!available) {  // kernels before 3.14: free + page cache is the usual approximation
        const auto free = fieldKb(text, "MemFree");
        const auto cached = fieldKb(text, "Cached");
        if (free && cached) available = *free + *cached;
    }
    if (!total || !available) return std::nullopt;
    HostMemory m;
    m.totalBytes = *total * 1024;
    m.availableBytes = std::min(*available, *total) * 1024;
    return m;
}

HostMemory HostMemory::read() {
    QFile f("/proc/meminfo");
    if (!f.open(QIODevice::ReadOnly)) return {};
    return parseMeminfo(f.readAll()).value_or(HostMemory{});
}

}  // namespace hearth::app
