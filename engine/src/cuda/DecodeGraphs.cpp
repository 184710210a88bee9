#include "cuda/DecodeGraphs.h"

#include "cuda/CudaCheck.h"

namespace hearth::cuda {

int DecodeGraphs::bucketFor(int n) {
    static const int kBuckets[] = {1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256};
    for (int b : kBuckets)
        if (n <= b) return b;
    return 0;
}

Status DecodeGraphs::launch(int key, cudaStream_t stream, const std::function<Status()>& enqueue) {
    auto it = graphs_.find(key);
    if (it == graphs_.end() && warm_.insert(key).second) {
        // The first step of a size runs eagerly: kernels load and cuBLAS picks its algorithms
        // outside of any capture; the second one is captured.
        return enqueue();
    }
    if (it == graphs_.end()) {
        HEARTH_CUDA_TRY(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        Status st = enqueue();
        cudaGraph_t graph = nullptr;
        const cudaError_t end = cudaStreamEndCapture(stream, &graph);
        if (!st.ok()) {
            if (graph) cudaGraphDestroy(graph);
            return st;
        }
        HEARTH_TRY(cudaStatus(end, "cudaStreamEndCapture"));
        cudaGraphExec_t exec = nullptr;
        const cudaError_t inst = cudaGraphInstantiate(&exec, graph, 0);
        cudaGraphDestroy(graph);
        HEARTH_TRY(cudaStatus(inst, "cudaGraphInstantiate"));
        it = graphs_.emplace(key, exec).first;
    }
    HEARTH_CUDA_TRY(cudaGraphLaunch(it->second, stream));
    return Status::success();
}

void DecodeGraphs::clear() {
    for (auto& [k, g] : graphs_) cudaGraphExecDestroy(g);
    graphs_.clear();
    warm_.clear();
}

}  // namespace hearth::cuda
