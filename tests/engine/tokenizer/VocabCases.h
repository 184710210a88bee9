#pragma once
// Reads llama.cpp-style tokenizer test sets: X.inp holds inputs separated by the line
// "__ggml_vocab_test__", X.out one line of space-separated expected ids per input.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hearth/tokenizer.h"

namespace hearth::test {

struct VocabCase {
    std::string input;
    std::vector<TokenId> expected;
};

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Empty when the files are missing or disagree on the number of cases.
inline std::vector<VocabCase> readVocabCases(const std::string& inpPath, const std::string& outPath) {
    const std::string inp = readFile(inpPath), out = readFile(outPath);
    if (inp.empty() || out.empty()) return {};
    static const std::string sep = "\n__ggml_vocab_test__\n";
    std::vector<std::string> inputs;
    size_t pos = 0;
    while (pos <= inp.size()) {
        const size_t hit = inp.find(sep, pos);
        if (hit == std::string::npos) {
            if (pos < inp.size()) inputs.push_back(inp.substr(pos));  // a file without the last separator
            break;
        }
        inputs.push_back(inp.substr(pos, hit - pos));
        pos = hit + sep.size();
    }
    std::vector<std::vector<TokenId>> expected;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream ids(line);
        std::vector<TokenId> v;
        long long x;
        while (ids >> x) v.push_back(static_cast<TokenId>(x));
        expected.push_back(std::move(v));
    }
    if (inputs.size() != expected.size()) return {};
    std::vector<VocabCase> cases;
    for (size_t i = 0; i < inputs.size(); ++i) cases.push_back({inputs[i], expected[i]});
    return cases;
}

inline std::string idsToString(const std::vector<TokenId>& v) {
    std::string s;
    for (TokenId id : v) s += (s.empty() ? "" : " ") + std::to_string(id);
    return s;
}

}  // namespace hearth::test
