// Placement plans, micro-batch splitting, and the pipeline over CPU stages (runs without a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "../TestPaths.h"
#include "backend/BackendFactory.h"
#include "cpu/CpuBackend.h"
#include "pipeline/CpuStage.h"
#include "pipeline/MicroBatch.h"
#include "pipeline/PipelineBackend.h"
#include "pipeline/PlacementPlan.h"

using namespace hearth;

namespace {

PlacementConfig gpus(std::vector<int> d, std::vector<float> split = {}, int cpu = 0, int logical = 1) {
    PlacementConfig p;
    p.devices = std::move(d);
    p.split = std::move(split);
    p.cpuLayers = cpu;
    p.logicalDevicesPerGpu = logical;
    return p;
}

void expectCovers(const PlacementPlan& plan, int nLayers) {
    int next = 0;
    for (const auto& s : plan.stages()) {
        EXPECT_EQ(s.firstLayer, next);
        EXPECT_GT(s.lastLayer, s.firstLayer);
        next = s.lastLayer;
    }
    EXPECT_EQ(next, nLayers);
    EXPECT_TRUE(plan.stages().front().embedding);
    EXPECT_TRUE(plan.stages().back().head);
}

}  // namespace

TEST(PlacementPlan, UserRatiosSplitLayers) {
    auto p = PlacementPlan::make(gpus({0, 1}, {3, 1}), 32, {});
    ASSERT_TRUE(p.ok()) << p.error().message;
    ASSERT_EQ(p->stages().size(), 2u);
    EXPECT_EQ(p->stages()[0].lastLayer, 24);
    EXPECT_EQ(p->stages()[1].device, 1);
    expectCovers(*p, 32);
    EXPECT_EQ(p->describe(), "cuda0[0,24) cuda1[24,32)");
}

TEST(PlacementPlan, FreeMemorySplitsWhenNoRatios) {
    auto p = PlacementPlan::make(gpus({0, 1}), 30, {20ull << 30, 10ull << 30});
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->stages()[0].lastLayer - p->stages()[0].firstLayer, 20);
    expectCovers(*p, 30);
}

TEST(PlacementPlan, CpuTailAndLogicalSlices) {
    auto p = PlacementPlan::make(gpus({0}, {}, 4, 2), 10, {1ull << 30});
    ASSERT_TRUE(p.ok()) << p.error().message;
    ASSERT_EQ(p->stages().size(), 3u);
    EXPECT_EQ(p->stages()[0].device, 0);
    EXPECT_EQ(p->stages()[1].logicalIndex, 1);
    EXPECT_EQ(p->stages()[2].device, -1);
    EXPECT_EQ(p->stages()[2].firstLayer, 6);
    EXPECT_FALSE(p->stages()[2].embedding);
    expectCovers(*p, 10);
    EXPECT_EQ(p->describe(), "cuda0#0[0,3) cuda0#1[3,6) cpu[6,10)");
}

TEST(PlacementPlan, RejectsImpossiblePlacements) {
    EXPECT_FALSE(PlacementPlan::make(gpus({0, 0}), 8, {}).ok());         // a device twice
    EXPECT_FALSE(PlacementPlan::make(gpus({0}, {}, 8), 8, {}).ok());     // no layer left for the GPU
    EXPECT_FALSE(PlacementPlan::make(gpus({0}, {}, 9), 8, {}).ok());
    EXPECT_FALSE(PlacementPlan::make(gpus({0, 1}, {1, 0}), 8, {}).ok()); // zero ratio
    EXPECT_FALSE(PlacementPlan::make(gpus({0, 1}, {1, 2, 3}), 8, {}).ok());
    EXPECT_FALSE(PlacementPlan::make(gpus({0}, {}, 0, 3), 2, {}).ok());  // more stages than layers
    auto cpuOnly = PlacementPlan::make(PlacementConfig{}, 5, {});
    ASSERT_TRUE(cpuOnly.ok());
    EXPECT_EQ(cpuOnly->stages().size(), 1u);
    EXPECT_EQ(cpuOnly->stages()[0].device, -1);
}

TEST(MicroBatch, SplitsBySequenceAndRebasesIndices) {
    ForwardBatch b;
    b.addSequence({1, 2, 3, 4, 5, 6}, 0, {7}, true, false);  // all logits
    b.addSequence({9}, 20, {1, 2}, false, true);
    b.addSequence({4, 4}, 3, {5}, false, true);
    auto parts = splitMicroBatches(b, 2);
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_EQ(parts[0].batch.seqs.size(), 1u);
    EXPECT_EQ(parts[0].batch.logitRows.size(), 6u);
    EXPECT_EQ(parts[1].firstLogitRow, 6);
    const ForwardBatch& p1 = parts[1].batch;
    ASSERT_EQ(p1.seqs.size(), 2u);
    EXPECT_EQ(p1.seqs[0].tokenBegin, 0);
    EXPECT_EQ(p1.seqs[1].tokenBegin, 1);
    EXPECT_EQ(p1.seqs[1].blockBegin, 2);
    EXPECT_EQ(p1.blockTables, (std::vector<int32_t>{1, 2, 5}));
    EXPECT_EQ(p1.logitRows, (std::vector<int32_t>{0, 2}));
    EXPECT_TRUE(p1.validate(16, 100).ok());
    EXPECT_EQ(splitMicroBatches(b, 8).size(), 3u);
}

TEST(PipelineBackend, TwoCpuStagesEqualOneCpuBackend) {
    auto file = GgufFile::open(test::modelPath("stories260K.gguf"));
    ASSERT_TRUE(file.ok());
    auto cfg = ModelConfig::fromGguf(**file);
    ASSERT_TRUE(cfg.ok());
    auto whole = cpu::CpuBackend::create(*file, *cfg, 2);
    auto a = cpu::CpuBackend::create(*file, *cfg, 1, 0, 2);
    auto b = cpu::CpuBackend::create(*file, *cfg, 1, 2, -1);
    ASSERT_TRUE(whole.ok() && a.ok() && b.ok());
    std::vector<std::unique_ptr<PipelineStage>> stages;
    stages.push_back(std::make_unique<CpuStage>(std::move(*a), true, false));
    stages.push_back(std::make_unique<CpuStage>(std::move(*b), false, true));
    PipelineBackend pipe(std::move(stages), nullptr, cfg->nVocab, cfg->nEmbd, 2);
    ASSERT_TRUE((*whole)->allocateKv(16, KvDType::F16).ok());
    ASSERT_TRUE(pipe.allocateKv(16, KvDType::F16).ok());
    EXPECT_EQ(pipe.kvBlockBytes(KvDType::F16), (*whole)->kvBlockBytes(KvDType::F16));

    // Three sequences (two micro-batches), then a decode step over them.
    ForwardBatch p;
    p.addSequence({1, 403, 407, 261, 378}, 0, {0}, false, true);
    p.addSequence({1, 432, 383}, 0, {1}, true, false);
    p.addSequence({1, 286, 261, 376, 298, 315}, 0, {2}, false, true);
    std::vector<float> lw, lp;
    ASSERT_TRUE((*whole)->forward(p, lw).ok());
    ASSERT_TRUE(pipe.forward(p, lp).ok());
    ASSERT_EQ(lw.size(), lp.size());
    for (size_t i = 0; i < lw.size(); ++i) ASSERT_NEAR(lw[i], lp[i], 1e-4f * std::max(1.0f, std::fabs(lw[i]))) << i;

    ForwardBatch d;
    d.addSequence({421}, 5, {0}, false, true);
    d.addSequence({395}, 3, {1}, false, true);
    d.addSequence({317}, 6, {2}, false, true);
    ASSERT_TRUE((*whole)->forward(d, lw).ok());
    ASSERT_TRUE(pipe.forward(d, lp).ok());
    for (size_t i = 0; i < lw.size(); ++i) ASSERT_NEAR(lw[i], lp[i], 1e-4f * std::max(1.0f, std::fabs(lw[i]))) << i;

    // A block's bytes are the stages' parts in order: copying out and back restores it.
    std::vector<uint8_t> host(pipe.kvBlockBytes(KvDType::F16) * 2), whole2(host.size());
    const int32_t ids[2] = {0, 2};
    ASSERT_TRUE(pipe.copyBlocksToHost(ids, host.data()).ok());
    ASSERT_TRUE((*whole)->copyBlocksToHost(ids, whole2.data()).ok());
    EXPECT_EQ(host, whole2);  // same layer order, same bytes
    ASSERT_TRUE(pipe.copyBlocksFromHost(ids, host.data()).ok());
    EXPECT_FALSE(pipe.canSampleOnDevice());
    EXPECT_EQ(pipe.memoryStats().size(), 2u);
}

TEST(BackendFactory, CpuWithoutDevicesAndClearErrorsOtherwise) {
    auto file = GgufFile::open(test::modelPath("stories260K.gguf"));
    ASSERT_TRUE(file.ok());
    auto cfg = ModelConfig::fromGguf(**file);
    EngineConfig ec;
    ec.threads = 1;
    auto cpu = createBackend(ec, *file, *cfg);
    ASSERT_TRUE(cpu.ok()) << cpu.error().message;
    EXPECT_EQ((*cpu)->name(), "CPU");

    ec.placement.cpuLayers = 2;  // offload needs devices
    EXPECT_EQ(createBackend(ec, *file, *cfg).error().code, ErrorCode::InvalidArgument);

    // With devices: without a usable GPU (CI, this machine) the answer is Unavailable, naming why.
    ec.placement.cpuLayers = 0;
    ec.placement.devices = {0};
    auto gpu = createBackend(ec, *file, *cfg);
    if (gpu.ok()) GTEST_SKIP() << "a CUDA device is present: " << (*gpu)->name();
    EXPECT_EQ(gpu.error().code, ErrorCode::Unavailable) << gpu.error().message;
    EXPECT_FALSE(gpu.error().message.empty());
}
