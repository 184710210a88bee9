// hearth::quantizeModel: reads a GGUF file, converts each weight tensor to the type its mix gives
// it (rows spread over a thread pool), and writes a new GGUF file with all the metadata.
#include <cctype>
#include <filesystem>
#include <set>

#include "cpu/ThreadPool.h"
#include "gguf/GgufFile.h"
#include "gguf/GgufWriter.h"
#include "hearth/quantize.h"
#include "quant/Dequantize.h"
#include "quant/QuantMix.h"
#include "quant/Quantize.h"

namespace hearth {
namespace {

int layerOf(const std::string& name) {
    if (name.rfind("blk.", 0) != 0) return -1;
    int v = 0;
    size_t i = 4;
    if (i >= name.size() || !std::isdigit(static_cast<unsigned char>(name[i]))) return -1;
    for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])); ++i) v = v * 10 + (name[i] - '0');
    return v;
}

struct ModelShape {
    int layers = 0, gqa = 1;
    bool hasOutput = false;
};

ModelShape shapeOf(const GgufFile& f) {
    ModelShape s;
    const std::string arch = f.getStringOr("general.architecture", "");
    std::set<int> blocks;
    for (const auto& t : f.tensors()) {
        if (const int l = layerOf(t.name); l >= 0) blocks.insert(l);
        if (t.name == "output.weight") s.hasOutput = true;
    }
    s.layers = static_cast<int>(f.getU64Or(arch + ".block_count", blocks.size()));
    const uint64_t heads = f.getU64Or(arch + ".attention.head_count", 1);
    const uint64_t kvHeads = f.getU64Or(arch + ".attention.head_count_kv", heads);
    s.gqa = kvHeads > 0 ? static_cast<int>(heads / kvHeads) : 1;
    return s;
}

// Converts rows of `in` (type `from`) into `to`, in parallel.
void convertRows(const uint8_t* in, TensorType from, uint8_t* out, TensorType to, uint64_t rows, uint64_t nx,
                 cpu::ThreadPool& pool) {
    const uint64_t inRow = *rowBytes(from, nx), outRow = *rowBytes(to, nx);
    const int64_t perTask = std::max<int64_t>(1, static_cast<int64_t>(rows) / (pool.size() * 8));
    const int64_t tasks = (static_cast<int64_t>(rows) + perTask - 1) / perTask;
    std::vector<std::vector<float>> scratch(static_cast<size_t>(pool.size()), std::vector<float>(nx));
    pool.run(tasks, [&](int64_t task, int worker) {
        float* buf = scratch[static_cast<size_t>(worker)].data();
        const uint64_t r1 = std::min<uint64_t>(rows, static_cast<uint64_t>((task + 1) * perTask));
        for (uint64_t r = static_cast<uint64_t>(task * perTask); r < r1; ++r) {
            quant::dequantize(from, in + r * inRow, buf, static_cast<int64_t>(nx));
            quant::quantize(to, buf, out + r * outRow, static_cast<int64_t>(nx));
        }
    });
}

}  // namespace

std::vector<std::string> quantizeMixNames() { return quant::QuantMix::names(); }

Result<QuantizeReport> quantizeModel(const QuantizeParams& p) {
    auto mix = quant::QuantMix::fromName(p.mix);
    if (!mix) return mix.error();
    if (p.inputPath.empty() || p.outputPath.empty())
        return makeError(ErrorCode::InvalidArgument, "quantize needs an input and an output path");
    std::error_code ec;
    if (std::filesystem::exists(p.outputPath, ec) && std::filesystem::equivalent(p.inputPath, p.outputPath, ec))
        return makeError(ErrorCode::InvalidArgument, "the output '" + p.outputPath + "' is the input file");
    auto file = GgufFile::open(p.inputPath);
    if (!file) return file.error();
    const GgufFile& f = **file;
    const ModelShape shape = shapeOf(f);

    GgufWriter w(f.alignment());
    for (const auto& [key, value] : f.metadata()) HEARTH_TRY(w.setMetadata(key, value));
    HEARTH_TRY(w.setMetadata("general.file_type", GgufValue::u32(mix->fileType())));
    HEARTH_TRY(w.setMetadata("general.quantization_version", GgufValue::u32(2)));

    QuantizeReport report;
    report.fileType = mix->fileType();
    report.inputBytes = f.fileSize();
    cpu::ThreadPool pool(p.threads);
    const size_t count = f.tensors().size();
    for (size_t idx = 0; idx < count; ++idx) {
        const GgufTensorInfo& t = f.tensors()[idx];
        quant::TensorSlot slot{t.name, t.type, t.dims, layerOf(t.name), shape.layers, shape.gqa, shape.hasOutput};
        const TensorType to = mix->typeFor(slot);
        if (to != t.type && (!quant::canDequantize(t.type) || !quant::canQuantize(to)))
            return makeError(ErrorCode::UnknownTensorType, "cannot convert tensor '" + t.name + "' from " +
                                                               std::string(tensorTypeName(t.type)) + " to " +
                                                               std::string(tensorTypeName(to)));
        ++report.typeCounts[std::string(tensorTypeName(to))];
        if (to != t.type) ++report.converted;
        QuantizeProgress progress{idx, count, t.name, std::string(tensorTypeName(t.type)), std::string(tensorTypeName(to)), t.dims};
        const uint8_t* src = f.tensorData(t);
        HEARTH_TRY(w.addTensor(t.name, to, t.dims, [&p, &pool, progress, src, t, to](std::vector<uint8_t>& out) -> Status {
            if (p.progress && !p.progress(progress))
                return makeError(ErrorCode::Cancelled, "quantization cancelled at tensor '" + t.name + "'");
            if (to == t.type) {
                out.assign(src, src + t.byteSize);
            } else {
                out.resize(*rowBytes(to, t.dims[0]) * t.rows());
                convertRows(src, t.type, out.data(), to, t.rows(), t.dims[0], pool);
            }
            return Status::success();
        }));
    }
    HEARTH_TRY(w.write(p.outputPath));
    report.tensors = count;
    report.outputBytes = std::filesystem::file_size(p.outputPath, ec);
    return report;
}

}  // namespace hearth
