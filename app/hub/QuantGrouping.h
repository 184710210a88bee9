#pragma once
// Groups a repo's GGUF files into downloadable variants (QuantGroup) and knows the typical bits
// per weight of each quantization, for size and fit estimates.
#include <QList>
#include <QString>

#include "hub/HubFile.h"
#include "hub/QuantGroup.h"

namespace hearth::app {

class QuantGrouping {
public:
    // Only *.gguf files take part; groups come back models first (by bits per weight, smallest
    // first), projectors last.
    static QList<QuantGroup> group(const QList<HubFile>& files);
    // Typical bits per weight of a quantization name (averaged over a model's tensor mix, as
    // llama.cpp's quantizer produces it); 0 for an unknown name.
    static double bitsPerWeight(const QString& quant);
};

}  // namespace hearth::app
