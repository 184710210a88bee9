// hearth-cli info -m MODEL: one JSON object describing a GGUF file (header only).
#include <cstdio>

#include <nlohmann/json.hpp>

#include "CliArgs.h"
#include "CommandRegistry.h"
#include "hearth/model_info.h"

namespace hearth::cli {
namespace {

int runInfo(int argc, char** argv) {
    CliArgs args(argc, argv, 2, {"m", "model"});
    auto model = args.get("model", "m");
    const bool all = args.flag("metadata");
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    if (!model) return fail("info needs -m MODEL", 2);
    auto info = inspectModel(*model);
    if (!info) return fail(info.error().toString());
    nlohmann::json j;
    j["path"] = info->path;
    j["file_size"] = info->fileSize;
    j["gguf_version"] = info->ggufVersion;
    j["architecture"] = info->architecture;
    j["supported"] = info->supported;
    j["name"] = info->name;
    j["file_type"] = info->fileType;
    j["parameter_count"] = info->parameterCount;
    j["layers"] = info->layers;
    j["embedding_length"] = info->embeddingLength;
    j["feed_forward_length"] = info->feedForwardLength;
    j["heads"] = info->heads;
    j["kv_heads"] = info->kvHeads;
    j["head_dim"] = info->headDim;
    j["context_length"] = info->contextLength;
    j["vocab_size"] = info->vocabSize;
    j["tokenizer_model"] = info->tokenizerModel;
    j["tokenizer_pre"] = info->tokenizerPre;
    j["chat_template"] = info->hasChatTemplate;
    j["tensor_types"] = info->tensorTypeCounts;
    j["tensor_bytes"] = info->tensorTypeBytes;
    j["weight_bytes"] = info->weightBytes;
    if (all) {
        nlohmann::json md = nlohmann::json::object();
        for (const auto& [k, v] : info->metadata) md[k] = v;
        j["metadata"] = md;
    }
    std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    return 0;
}

RegisterCommand reg("info", "info -m MODEL [--metadata]        describe a GGUF file as JSON", runInfo);

}  // namespace
}  // namespace hearth::cli
