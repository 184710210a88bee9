#pragma once
// The engine flags that `run` and `bench` share: --ctx, --kv-type f16|q8_0, --ram-cache MiB,
// --disk-cache DIR, --disk-cache-size MiB, --max-seqs, --batch-tokens, --prefill-chunk, --threads,
// --no-prefix-cache, --batch-invariant (results independent of batch-mates, see EngineConfig), and placement: --devices 0,1 (CUDA ordinals in pipeline order), --split 3,1
// (relative layer shares), --cpu-layers N (the last N layers on the CPU); speculative decoding:
// --spec ngram|index:PATH|draft:MODEL, --spec-max N (draft tokens per step, at most), --spec-ngram
// MIN,MAX (prompt-lookup n-gram lengths), --spec-fixed (always --spec-max drafts, no adaptive
// lengths), --spec-off-above N (no speculation from N decoding
// sequences on); --chat-template FILE (Jinja replacing the model's own chat template).

#include <set>
#include <string>

#include "CliArgs.h"
#include "hearth/engine.h"

namespace hearth::cli {

// Names (without dashes) of the engine flags that take a value, for CliArgs.
std::set<std::string> engineValueOptions();
// Reads the flags into config (leaving defaults where absent); returns an error message or "".
std::string readEngineFlags(CliArgs& args, EngineConfig& config);

}  // namespace hearth::cli
