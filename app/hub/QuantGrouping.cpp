#include "hub/QuantGrouping.h"

#include <QHash>
#include <QMap>
#include <algorithm>

#include "core/GgufFileName.h"

namespace hearth::app {

double QuantGrouping::bitsPerWeight(const QString& quant) {
    // Whole-model averages (block scales included, mixed tensor types averaged in).
    static const QHash<QString, double> table = {
        {"F32", 32.0},    {"F16", 16.0},    {"BF16", 16.0},   {"Q8_0", 8.5},     {"Q6_K", 6.56},
        {"Q5_1", 6.0},    {"Q5_K_M", 5.69}, {"Q5_K_S", 5.54}, {"Q5_K", 5.69},    {"Q5_0", 5.5},
        {"Q4_1", 5.0},    {"Q4_K_M", 4.89}, {"Q4_K_L", 5.0},  {"Q4_K_XL", 5.0},  {"Q4_K", 4.89},
        {"Q4_K_S", 4.58}, {"Q4_0", 4.55},   {"Q4_0_4_4", 4.55}, {"Q4_0_4_8", 4.55}, {"Q4_0_8_8", 4.55},
        {"IQ4_NL", 4.5},  {"IQ4_XS", 4.25}, {"MXFP4", 4.25},  {"MXFP4_MOE", 4.25}, {"Q3_K_XL", 4.4},
        {"Q3_K_L", 4.27}, {"Q3_K_M", 3.91}, {"Q3_K", 3.91},   {"Q3_K_S", 3.5},   {"IQ3_M", 3.66},
        {"IQ3_S", 3.44},  {"IQ3_XS", 3.3},  {"IQ3_XXS", 3.06}, {"Q2_K_XL", 3.2}, {"Q2_K", 2.96},
        {"Q2_K_L", 3.0},  {"Q2_K_S", 2.7},  {"IQ2_M", 2.7},   {"IQ2_S", 2.5},    {"IQ2_XS", 2.31},
        {"IQ2_XXS", 2.06}, {"TQ2_0", 2.06}, {"IQ1_M", 1.75},  {"TQ1_0", 1.69},   {"IQ1_S", 1.56},
    };
    return table.value(quant.toUpper(), 0.0);
}

QList<QuantGroup> QuantGrouping::group(const QList<HubFile>& files) {
    // Keyed by folder + baseName, so every part of a split model lands in one group.
    QMap<QString, QuantGroup> groups;
    QMap<QString, QMap<int, HubFile>> parts;
    QMap<QString, int> expectedParts;
    for (const HubFile& f : files) {
        const GgufFileName name = GgufFileName::parse(f.path);
        if (!name.isGguf) continue;
        const int slash = f.path.lastIndexOf('/');
        const QString key = (slash >= 0 ? f.path.left(slash + 1) : QString()) + name.baseName;
        QuantGroup& g = groups[key];
        g.baseName = key;
        g.quant = name.quant;
        g.projector = name.isProjector;
        g.split = g.split || name.isSplit();
        g.bitsPerWeight = bitsPerWeight(name.quant);
        g.totalBytes += f.size;
        parts[key].insert(name.isSplit() ? name.splitIndex : 1, f);
        expectedParts[key] = std::max(expectedParts.value(key, 1), name.splitCount);
    }
    QList<QuantGroup> out;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        QuantGroup g = *it;
        g.files = parts.value(it.key()).values();  // QMap: in part order
        g.complete = g.files.size() == expectedParts.value(it.key());
        out.append(g);
    }
    std::stable_sort(out.begin(), out.end(), [](const QuantGroup& a, const QuantGroup& b) {
        if (a.projector != b.projector) return !a.projector;
        const double ab = a.bitsPerWeight > 0 ? a.bitsPerWeight : 1e9;
        const double bb = b.bitsPerWeight > 0 ? b.bitsPerWeight : 1e9;
        if (ab != bb) return ab < bb;
        return a.baseName < b.baseName;
    });
    return out;
}

}  // namespace hearth::app
