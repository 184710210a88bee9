#pragma once
// CUDA graphs of whole steps whose every token is a logit row (decode steps and speculative
// verification steps), one per (padded token count, head output kind), so such a step costs one
// graph launch instead of hundreds of kernel launches.
//
// Invariants: a graph is valid only while every buffer it captured stays where it was; the owner
// calls clear() whenever it reallocates one (KV pool, scratch, metadata, rope table). Buckets are
// fixed sizes a decode batch is padded up to.

#include <cuda_runtime_api.h>

#include <functional>
#include <map>
#include <set>

#include "hearth/result.h"

namespace hearth::cuda {

class DecodeGraphs {
public:
    ~DecodeGraphs() { clear(); }

    // The bucket a step of n tokens is padded to, or 0 when n is too large for graphs.
    static int bucketFor(int n);

    // Launches the graph for `key`, capturing `enqueue` on `stream` first when there is none.
    Status launch(int key, cudaStream_t stream, const std::function<Status()>& enqueue);
    void clear();
    size_t size() const { return graphs_.size(); }

private:
    std::map<int, cudaGraphExec_t> graphs_;
    std::set<int> warm_;  // sizes run once eagerly
};

}  // namespace hearth::cuda
