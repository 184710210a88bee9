#pragma once
// "Does it fit": weights + KV cache for the chosen context + a fixed allowance for compute
// buffers and the CUDA context, against the free memory of the chosen GPUs (or host RAM). It is
// an estimate before download; the load dialog's plan, made from the real GGUF, is the final word.
// KV per token comes from hearth::ModelInfo::kvBytesPerToken when the GGUF is local, else from
// the repo's config.json, else from a rule of thumb on the parameter count (marked approximate).
#include <QJsonObject>
#include <QString>

#include "hub/FitEstimate.h"
#include "hub/FitRequest.h"

namespace hearth::app {

class FitEstimator {
public:
    static constexpr qint64 kPerDeviceOverhead = 300ll << 20;  // CUDA context + scratch
    static constexpr double kWeightOverheadFraction = 0.02;    // activations scale with the model

    static FitEstimate estimate(const FitRequest& request);

    // 2 x layers x kv heads x head dim x bytesPerElement from a transformers config.json (also
    // reads a nested text_config, as multimodal configs have); 0 when the keys are missing.
    static double kvBytesPerTokenFromConfig(const QJsonObject& config, double bytesPerElement = 2.0);
    // A rule of thumb when only the parameter count is known: recent GQA models (8 KV heads of
    // 128 over 32 layers at 8B) need about 1.6e-5 bytes per parameter per token in F16.
    static double kvBytesPerTokenGuess(quint64 parameterCount, double bytesPerElement = 2.0);
    // "Llama-3.1-8B-Instruct" -> 8e9, "Qwen2.5-0.5B" -> 5e8, "SmolLM-135M" -> 1.35e8,
    // "Mixtral-8x7B" -> 5.6e10 (experts times size); 0 when the name has no size.
    static quint64 parameterCountFromName(const QString& name);
    // Parameters implied by a file size and the quantization's bits per weight.
    static quint64 parameterCountFromSize(qint64 bytes, double bitsPerWeight);
};

}  // namespace hearth::app
