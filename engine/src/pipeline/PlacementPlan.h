#pragma once
// Which layers run where: a pure function from the placement settings, the layer count and each
// device's free memory to an ordered list of stages.
//
// Invariants of a plan that make() returns: stages are in pipeline order and cover [0, nLayers)
// exactly, contiguously, each with at least one layer; GPU stages come first (device order as
// given, each device's logical slices together), then at most one CPU stage holding the last
// cpuLayers layers; the first stage embeds and the last has the head.

#include <cstdint>
#include <string>
#include <vector>

#include "hearth/engine.h"
#include "hearth/result.h"

namespace hearth {

struct StagePlan {
    int device = -1;        // CUDA ordinal; -1: the CPU
    int logicalIndex = 0;   // slice of the device (0 .. logicalCount - 1)
    int logicalCount = 1;
    int firstLayer = 0, lastLayer = 0;
    bool embedding = false, head = false;
};

class PlacementPlan {
public:
    // freeBytes[i]: free memory of placement.devices[i] (used when split is empty).
    static Result<PlacementPlan> make(const PlacementConfig& placement, int nLayers,
                                      const std::vector<uint64_t>& freeBytes);

    const std::vector<StagePlan>& stages() const { return stages_; }
    std::string describe() const;  // "cuda0[0,16) cuda0#1[16,28) cpu[28,32)"

private:
    std::vector<StagePlan> stages_;
};

}  // namespace hearth
