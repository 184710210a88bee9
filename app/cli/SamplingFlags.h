#pragma once
// The sampling flags that `run`, `chat` and `bench` share: --temp, --top-k, --top-p, --min-p,
// --repeat-penalty, --seed, -n/--n-predict, --ignore-eos.

#include <set>
#include <string>

#include "CliArgs.h"
#include "hearth/engine.h"

namespace hearth::cli {

std::set<std::string> samplingValueOptions();
// Reads the flags into request (keeping its defaults where absent); returns an error message or "".
std::string readSamplingFlags(CliArgs& args, GenerationRequest& request, int defaultMaxTokens);

}  // namespace hearth::cli
