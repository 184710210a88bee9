#pragma once
// Asynchronous global-to-shared copies (cp.async, sm_80+; bulk copies, sm_90) and the tensor-core instruction the
// matrix kernels share (mma.sync m16n8k16, f16 inputs, f32 sums).
#include <cstdint>

namespace hearth::cuda {

__device__ __forceinline__ unsigned sharedAddr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// 16 bytes, bypassing L1 (streamed data); src and dst 16-byte aligned.
__device__ __forceinline__ void cpAsync16(void* dst, const void* src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sharedAddr(dst)), "l"(src));
}
// The same to a shared-memory address (sharedAddr), issued only where `pred` holds: one predicated
// instruction, no branch.
__device__ __forceinline__ void cpAsync16If(unsigned dst, const void* src, bool pred) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\n@p cp.async.cg.shared.global [%0], [%1], 16;\n}\n" ::"r"(dst), "l"(src),
        "r"(static_cast<int>(pred)));
}
// The 16-byte chunks lane + 32 j (j < kPerLane) of the first nv chunks of a run, from this lane's
// source srcLane (the run's start + 16 lane) to its shared address dstLane (the same offset): kPerLane
// predicated copies per lane, none where !pred.
template <int kPerLane>
__device__ __forceinline__ void warpCopy16At(unsigned dstLane, const void* srcLane, int nv, int lane, bool pred) {
    const char* s = static_cast<const char*>(srcLane);
#pragma unroll
    for (int j = 0; j < kPerLane; ++j) cpAsync16If(dstLane + 512 * j, s + 512 * j, pred && lane + 32 * j < nv);
}
// The 16-byte chunks of the first n bytes (n < 512 kPerLane + 16) of src, to the shared address dst,
// chunk i by lane i % 32 of a warp: kPerLane predicated copies per lane, none where !pred. (The
// general matrix-vector kernel's; written out rather than through warpCopy16At, which changed the
// registers of one of its instantiations.)
template <int kPerLane>
__device__ __forceinline__ void warpCopy16(unsigned dst, const void* src, int n, int lane, bool pred) {
    const int nv = n >> 4;
    const char* s = static_cast<const char*>(src) + 16 * lane;
    dst += 16 * lane;
#pragma unroll
    for (int j = 0; j < kPerLane; ++j) cpAsync16If(dst + 512 * j, s + 512 * j, pred && lane + 32 * j < nv);
}
__device__ __forceinline__ void cpAsync8(void* dst, const void* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(sharedAddr(dst)), "l"(src));
}
__device__ __forceinline__ void cpAsync4(void* dst, const void* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sharedAddr(dst)), "l"(src));
}
__device__ __forceinline__ void cpCommit() { asm volatile("cp.async.commit_group;\n" ::); }
// Waits until at most `pending` (0, 1 or 2) of this thread's committed groups are still in flight.
__device__ __forceinline__ void cpWaitPending(int pending) {
    if (pending <= 0) asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    else if (pending == 1) asm volatile("cp.async.wait_group 1;\n" ::: "memory");
    else asm volatile("cp.async.wait_group 2;\n" ::: "memory");
}

// Bulk copies (sm_90: cp.async.bulk, one instruction per contiguous run of a multiple of 16 bytes)
// completing on an mbarrier in shared memory, for kernels with a fallback on older GPUs (the
// calls compile to nothing there). A barrier takes one arrival (barExpect, with the bytes the
// copies on it will deliver) per phase, or `arrivals` where several threads each expect their own
// copies' bytes; barWait(parity) returns once that phase has completed.
__device__ __forceinline__ void barInit(uint32_t bar, uint32_t arrivals = 1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
#endif
}
__device__ __forceinline__ void barFenceInit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
// The slot's one arrival, expecting `bytes` of bulk copies to complete on it.
__device__ __forceinline__ void barExpect(uint32_t bar, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
#endif
}
__device__ __forceinline__ void bulkCopy(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
#endif
}
// A 2-D box of a tensor map (a CUtensorMap in a __grid_constant__ kernel parameter or in global
// memory) at coordinates (c0, c1), c0 the inner one, copied to dst by the TMA unit and completing on
// bar. Elements outside the tensor arrive as zeros and count toward the box's bytes.
__device__ __forceinline__ void tensorCopy2d(uint32_t dst, const void* map, int c0, int c1, uint32_t bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
        "l"(map), "r"(c0), "r"(c1), "r"(bar)
        : "memory");
#endif
}
// One arrival on bar with no bytes expected (a consumer releasing a stage to its producer).
__device__ __forceinline__ void barArrive(uint32_t bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
#endif
}
__device__ __forceinline__ void barWait(uint32_t bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t done = 0;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
#endif
}

// c += A·B for one 16×8 tile: a0..a3 the A fragment (16×16, row-major), b0, b1 the B fragment.
__device__ __forceinline__ void mma16816(float (&c)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                                         uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

}  // namespace hearth::cuda
