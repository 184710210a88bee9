#include "core/GgufFileName.h"

#include <QRegularExpression>

namespace hearth::app {
namespace {

// The quantization names llama.cpp's quantizer and the common GGUF publishers put in file names.
// The alternatives are ordered so that a longer name wins over its prefix (XXS before XS before S).
const QRegularExpression& quantPattern() {
    static const QRegularExpression re(
        R"((?<![A-Za-z0-9])()"
        R"(IQ[1-4]_(?:XXS|XS|NL|S|M|L))"
        R"(|Q[2-8]_K(?:_(?:XS|XL|S|M|L))?)"
        R"(|Q[4-8]_[01](?:_[48]_[48])?)"
        R"(|TQ[12]_0|MXFP4(?:_MOE)?)"
        R"(|BF16|FP16|FP32|F16|F32)"
        R"()(?![A-Za-z0-9]))",
        QRegularExpression::CaseInsensitiveOption);
    return re;
}

const QRegularExpression& splitPattern() {
    static const QRegularExpression re(R"(-(\d{5})-of-(\d{5})$)");
    return re;
}

}  // namespace

GgufFileName GgufFileName::parse(const QString& pathOrName) {
    GgufFileName out;
    out.fileName = pathOrName.section('/', -1);
    QString stem = out.fileName;
    out.isGguf = stem.endsWith(".gguf", Qt::CaseInsensitive);
    if (out.isGguf) stem.chop(5);
    if (auto m = splitPattern().match(stem); m.hasMatch()) {
        const int index = m.captured(1).toInt();
        const int count = m.captured(2).toInt();
        if (count >= 1 && index >= 1 && index <= count) {
            out.splitIndex = index;
            out.splitCount = count;
            stem.chop(m.capturedLength(0));
        }
    }
    out.baseName = stem;
    out.isProjector = stem.contains("mmproj", Qt::CaseInsensitive);
    // The last match wins: publishers put the quantization at the end ("Model-7B-Q4_K_M").
    auto it = quantPattern().globalMatch(stem);
    while (it.hasNext()) out.quant = it.next().captured(1).toUpper();
    if (out.quant == "FP16") out.quant = "F16";
    if (out.quant == "FP32") out.quant = "F32";
    return out;
}

}  // namespace hearth::app
