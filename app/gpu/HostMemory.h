#pragma once
// The host's RAM, for the CPU "device" in the load dialog: total and available (MemAvailable, the
// kernel's estimate of what can be allocated without swapping).
// Invariant: availableBytes <= totalBytes; both 0 when unknown.
#include <QByteArray>
#include <QtGlobal>
#include <optional>

namespace hearth::app {

struct HostMemory {
    quint64 totalBytes = 0;
    quint64 availableBytes = 0;

    // Parses /proc/meminfo text ("MemTotal:  16318480 kB" ...); nullopt when the fields are absent.
    static std::optional<HostMemory> parseMeminfo(const QByteArray& text);
    // Reads /proc/meminfo (zeros where it cannot be read).
    static HostMemory read();
};

}  // namespace hearth::app
