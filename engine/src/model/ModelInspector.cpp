// inspectModel(): the public, header-only view of a GGUF file.
#include "gguf/GgufFile.h"
#include "hearth/model_info.h"
#include "model/FileType.h"
#include "model/ModelConfig.h"

#include <cctype>

namespace hearth {

std::vector<std::string> supportedArchitectures() { return runnableArchitectures(); }

double ModelInfo::kvBytesPerToken(double bytesPerElement) const {
    return 2.0 * layers * kvHeads * headDim * bytesPerElement;  // K and V
}

Result<ModelInfo> inspectModel(const std::string& path) {
    auto opened = GgufFile::open(path);
    if (!opened) return opened.error();
    const GgufFile& f = **opened;
    ModelInfo info;
    info.path = path;
    info.fileSize = f.fileSize();
    info.ggufVersion = f.version();
    info.architecture = f.getStringOr("general.architecture", "");
    info.name = f.getStringOr("general.name", "");
    info.tokenizerModel = f.getStringOr("tokenizer.ggml.model", "");
    info.tokenizerPre = f.getStringOr("tokenizer.ggml.pre", "");
    info.chatTemplate = f.getStringOr("tokenizer.chat_template", "");
    info.hasChatTemplate = !info.chatTemplate.empty();
    for (const auto& t : f.tensors()) {
        const std::string type(tensorTypeName(t.type));
        info.tensorTypeCounts[type] += 1;
        info.tensorTypeBytes[type] += t.byteSize;
        info.weightBytes += t.byteSize;
        info.parameterCount += t.elements();
    }
    if (const GgufValue* ft = f.find("general.file_type"); ft && ft->asU64()) info.fileType = fileTypeName(static_cast<uint32_t>(*ft->asU64()));
    if (info.fileType.empty() && !info.tensorTypeBytes.empty()) {
        // No declared mix: name the file after the type holding most bytes.
        auto best = info.tensorTypeBytes.begin();
        for (auto it = info.tensorTypeBytes.begin(); it != info.tensorTypeBytes.end(); ++it)
            if (it->second > best->second) best = it;
        info.fileType = best->first;
        for (auto& ch : info.fileType) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    }
    for (const auto& [k, v] : f.metadata()) info.metadata.emplace_back(k, v.toDisplayString());
    auto cfg = ModelConfig::fromGguf(f);
    info.supported = cfg.ok();
    if (cfg.ok()) {
        info.layers = cfg->nLayers;
        info.embeddingLength = cfg->nEmbd;
        info.feedForwardLength = cfg->nFf;
        info.heads = cfg->nHead;
        info.kvHeads = cfg->nHeadKv;
        info.headDim = cfg->headDim;
        info.contextLength = cfg->nCtxTrain;
        info.vocabSize = cfg->nVocab;
    } else {
        const std::string p = info.architecture + ".";
        info.layers = static_cast<uint32_t>(f.getU64Or(p + "block_count", 0));
        info.embeddingLength = static_cast<uint32_t>(f.getU64Or(p + "embedding_length", 0));
        info.contextLength = static_cast<uint32_t>(f.getU64Or(p + "context_length", 0));
        if (const GgufValue* t = f.find("tokenizer.ggml.tokens"); t && t->asArray())
            info.vocabSize = static_cast<uint32_t>(t->asArray()->size());
    }
    return info;
}

}  // namespace hearth
