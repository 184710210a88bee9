#pragma once
// One downloadable GGUF variant of a repo: a single file, or all parts of a split model, with the
// quantization its name says. The Discover page lists these per repo.
// Invariants: files are the parts in part order (one file when not split); totalBytes is the sum
// of their sizes; all files share folder + baseName.
#include <QList>
#include <QString>

#include "hub/HubFile.h"

namespace hearth::app {

struct QuantGroup {
    QString quant;      // "Q4_K_M", "IQ3_XXS", "F16", ... or "" when the name has none
    QString baseName;   // "Model-7B-Q4_K_M" (folder prefix kept: "Q8_0/Model-Q8_0")
    QList<HubFile> files;
    qint64 totalBytes = 0;
    bool split = false;
    bool complete = true;   // a split set with every part present
    bool projector = false; // a multimodal projector (mmproj), not a model by itself
    double bitsPerWeight = 0;  // typical for the quant (see QuantGrouping); 0 when unknown
};

}  // namespace hearth::app
