#pragma once
// What a GGUF file's name says about it: the quantization ("Q4_K_M", "IQ3_XXS", "F16", ...), whether
// it is one part of a split model ("-00001-of-00003.gguf"), and whether it is a vision projector
// ("mmproj-..."). Used by the hub client to group a repo's files and by the model library's folder
// scan (which adds a split model once, by its first part).
//
// Invariants: quant is upper case and empty when the name names none; splitIndex and splitCount
// are both 0 (not split) or 1 <= splitIndex <= splitCount; baseName is the name without ".gguf"
// and without the split suffix, so every part of one split model has the same baseName.

#include <QString>

namespace hearth::app {

struct GgufFileName {
    QString fileName;   // the last path component
    QString baseName;
    QString quant;
    int splitIndex = 0;
    int splitCount = 0;
    bool isGguf = false;
    bool isProjector = false;

    bool isSplit() const { return splitCount > 0; }
    bool isFirstPart() const { return splitIndex <= 1; }

    // Parses a file name or a path ("sub/dir/model-Q4_K_M.gguf").
    static GgufFileName parse(const QString& pathOrName);
};

}  // namespace hearth::app
