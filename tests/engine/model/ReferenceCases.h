#pragma once
// The llama.cpp reference cases in ../shared/testdata/reference/*.json.
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../TestPaths.h"

namespace hearth::test {

struct ReferenceCase {
    std::string model, prompt, text;
    int n = 0;
    std::vector<int32_t> promptTokens, tokens;
};

inline std::vector<ReferenceCase> loadReferenceCases(const std::string& file) {
    std::ifstream in(testdataPath("reference/" + file));
    auto j = nlohmann::json::parse(in);
    std::vector<ReferenceCase> out;
    for (const auto& c : j) {
        ReferenceCase r;
        r.model = c["model"];
        r.prompt = c["prompt"];
        r.n = c["n"];
        r.text = c["text"];
        r.promptTokens = c["prompt_tokens"].get<std::vector<int32_t>>();
        r.tokens = c["tokens"].get<std::vector<int32_t>>();
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace hearth::test
