#pragma once
// The answer of FitEstimator: what a model variant needs and whether the chosen devices have it.
// Invariants: requiredBytes = weightBytes + kvBytes + overheadBytes; fits == requiredBytes <=
// availableBytes; approximate is true whenever any input was guessed (the UI says "about").
#include <QString>
#include <QtGlobal>

namespace hearth::app {

struct FitEstimate {
    qint64 weightBytes = 0;
    qint64 kvBytes = 0;
    qint64 overheadBytes = 0;
    qint64 requiredBytes = 0;
    qint64 availableBytes = 0;
    bool fits = false;
    bool approximate = false;
    QString summary;  // "about 5.2 GiB of 24.0 GiB (weights 4.6, KV 0.5, other 0.4)"
};

}  // namespace hearth::app
