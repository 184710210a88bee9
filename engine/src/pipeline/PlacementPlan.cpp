#include "pipeline/PlacementPlan.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hearth {
namespace {

// Largest-remainder apportionment of n layers by weights, each share at least one layer.
std::vector<int> apportion(int n, const std::vector<double>& w) {
    const size_t k = w.size();
    std::vector<int> out(k, 1);
    int left = n - static_cast<int>(k);
    const double total = std::accumulate(w.begin(), w.end(), 0.0);
    std::vector<std::pair<double, size_t>> rem;
    int given = 0;
    for (size_t i = 0; i < k; ++i) {
        const double exact = left * (w[i] / total);
        const int whole = static_cast<int>(std::floor(exact));
        out[i] += whole;
        given += whole;
        rem.push_back({exact - whole, i});
    }
    std::stable_sort(rem.begin(), rem.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (int i = 0; i < left - given; ++i) out[rem[static_cast<size_t>(i) % k].second] += 1;
    return out;
}

}  // namespace

Result<PlacementPlan> PlacementPlan::make(const PlacementConfig& p, int nLayers, const std::vector<uint64_t>& freeBytes) {
    PlacementPlan plan;
    if (nLayers <= 0) return makeError(ErrorCode::InvalidArgument, "a model without layers cannot be placed");
    if (p.cpuLayers < 0 || p.cpuLayers > nLayers)
        return makeError(ErrorCode::InvalidArgument, "cpu layers " + std::to_string(p.cpuLayers) +
                                                         " is outside 0.." + std::to_string(nLayers));
    if (p.devices.empty()) {
        plan.stages_.push_back(StagePlan{-1, 0, 1, 0, nLayers, true, true});
        return plan;
    }
    if (p.logicalDevicesPerGpu < 1 || p.logicalDevicesPerGpu > 16)
        return makeError(ErrorCode::InvalidArgument, "logical devices per GPU must be 1..16");
    for (size_t i = 0; i < p.devices.size(); ++i) {
        if (p.devices[i] < 0) return makeError(ErrorCode::InvalidArgument, "device ordinals cannot be negative");
        for (size_t j = 0; j < i; ++j)
            if (p.devices[j] == p.devices[i])
                return makeError(ErrorCode::InvalidArgument, "device " + std::to_string(p.devices[i]) + " is listed twice");
    }
    const int L = p.logicalDevicesPerGpu;
    const size_t gpuStages = p.devices.size() * static_cast<size_t>(L);
    const int gpuLayers = nLayers - p.cpuLayers;
    if (gpuLayers < static_cast<int>(gpuStages))
        return makeError(ErrorCode::InvalidArgument,
                         std::to_string(gpuLayers) + " GPU layers cannot fill " + std::to_string(gpuStages) +
                             " GPU stages (each needs at least one layer; lower --cpu-layers or use fewer devices)");

    // Weights per GPU stage: the user's split (per device or per stage), else free memory.
    std::vector<double> w(gpuStages, 1.0);
    if (!p.split.empty()) {
        if (p.split.size() != p.devices.size() && p.split.size() != gpuStages)
            return makeError(ErrorCode::InvalidArgument, "split has " + std::to_string(p.split.size()) +
                                                             " entries for " + std::to_string(p.devices.size()) +
                                                             " devices");
        for (float s : p.split)
            if (!(s > 0.0f) || !std::isfinite(s))
                return makeError(ErrorCode::InvalidArgument, "split ratios must be positive numbers");
        for (size_t i = 0; i < gpuStages; ++i)
            w[i] = p.split.size() == gpuStages ? p.split[i] : p.split[i / L] / L;
    } else if (freeBytes.size() == p.devices.size()) {
        bool any = false;
        for (uint64_t f : freeBytes) any |= f > 0;
        if (any)
            for (size_t i = 0; i < gpuStages; ++i) w[i] = std::max<double>(1.0, static_cast<double>(freeBytes[i / L]));
    }
    const std::vector<int> share = apportion(gpuLayers, w);
    int next = 0;
    for (size_t i = 0; i < gpuStages; ++i) {
        StagePlan s;
        s.device = p.devices[i / L];
        s.logicalIndex = static_cast<int>(i % L);
        s.logicalCount = L;
        s.firstLayer = next;
        s.lastLayer = next + share[i];
        next = s.lastLayer;
        plan.stages_.push_back(s);
    }
    if (p.cpuLayers > 0) plan.stages_.push_back(StagePlan{-1, 0, 1, next, nLayers, false, false});
    plan.stages_.front().embedding = true;
    plan.stages_.back().head = true;
    return plan;
}

std::string PlacementPlan::describe() const {
    std::string s;
    for (const auto& st : stages_) {
        if (!s.empty()) s += ' ';
        s += st.device < 0 ? std::string("cpu") : "cuda" + std::to_string(st.device);
        if (st.logicalCount > 1) s += "#" + std::to_string(st.logicalIndex);
        s += "[" + std::to_string(st.firstLayer) + "," + std::to_string(st.lastLayer) + ")";
    }
    return s;
}

}  // namespace hearth
