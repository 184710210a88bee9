#pragma once
// What the standalone CUDA benchmarks (PhaseBench.cu, MmaCopyBench.cu) share: a CUDA call that
// exits with its error, and the time of a CUDA graph's replay.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (x);                                                                 \
        if (e_ != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            std::exit(1);                                                                     \
        }                                                                                     \
    } while (0)

// Milliseconds one run() takes on stream s: the mean of `reps` after three warm-up runs.
template <typename Run>
float timeIt(cudaStream_t s, int reps, Run&& run) {
    for (int i = 0; i < 3; ++i) run();
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaEventRecord(a, s));
    for (int i = 0; i < reps; ++i) run();
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return ms / reps;
}

// Milliseconds a replay of the graph that `enqueue` captures on s takes.
template <typename Enqueue>
float graphTime(cudaStream_t s, int reps, Enqueue&& enqueue) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    enqueue();
    CHECK(cudaStreamEndCapture(s, &graph));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    const float ms = timeIt(s, reps, [&] { CHECK(cudaGraphLaunch(exec, s)); });
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    return ms;
}
