// hearth-cli tokenize -m MODEL [--no-bos] [--parse-special]: UTF-8 from stdin, ids on one line.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include "CliArgs.h"
#include "CommandRegistry.h"
#include "hearth/tokenizer.h"

namespace hearth::cli {
namespace {

int runTokenize(int argc, char** argv) {
    CliArgs args(argc, argv, 2, {"m", "model"});
    auto model = args.get("model", "m");
    const bool noBos = args.flag("no-bos");
    const bool parseSpecial = args.flag("parse-special");
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    if (!model) return fail("tokenize needs -m MODEL", 2);
    if (!args.positionals().empty()) return fail("tokenize reads its text from stdin, not from arguments", 2);

    auto tok = Tokenizer::fromGguf(*model);
    if (!tok) return fail(tok.error().toString());

    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) return fail("could not read stdin");

    const auto ids = (*tok)->encode(text, {.addSpecial = !noBos, .parseSpecial = parseSpecial});
    std::string line;
    line.reserve(ids.size() * 6);
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i) line += ' ';
        line += std::to_string(ids[i]);
    }
    line += '\n';
    if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size()) return fail("could not write stdout");
    return 0;
}

RegisterCommand reg("tokenize", "tokenize -m MODEL [--no-bos] [--parse-special]   ids of stdin's UTF-8 text",
                    runTokenize);

}  // namespace
}  // namespace hearth::cli
