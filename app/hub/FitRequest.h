#pragma once
// The inputs of a "does it fit" estimate for one model variant on the chosen devices.
// Invariants: sizes in bytes; kvBytesPerToken is for the KV dtype the user picked (F16 unless
// said otherwise); an empty deviceFreeBytes means CPU only (hostAvailableBytes is the budget).
#include <QList>
#include <QtGlobal>

namespace hearth::app {

struct FitRequest {
    qint64 weightBytes = 0;        // the GGUF file size(s): weights are nearly all of it
    double kvBytesPerToken = 0;
    bool kvApproximate = false;    // guessed from names/config rather than read from the GGUF
    int contextLength = 4096;
    int parallelSequences = 1;     // each running sequence can hold a full context of KV
    QList<quint64> deviceFreeBytes;
    quint64 hostAvailableBytes = 0;
};

}  // namespace hearth::app
