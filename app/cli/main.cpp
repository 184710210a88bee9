// hearth-cli: headless front end over the engine (and, when built with Qt, the app services).
#include <cstdio>
#include <cstring>
#include <string>

#include "CommandRegistry.h"

namespace hearth::cli {

std::map<std::string, Command>& commands() {
    static std::map<std::string, Command> c;
    return c;
}

int fail(const std::string& message, int code) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return code;
}

}  // namespace hearth::cli

static void usage() {
    std::fprintf(stderr, "usage: hearth-cli COMMAND [options]\n\ncommands:\n");
    for (const auto& [name, c] : hearth::cli::commands()) std::fprintf(stderr, "  %s\n", c.usage.c_str());
}

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "help")) {
        usage();
        return argc < 2 ? 2 : 0;
    }
    auto& cmds = hearth::cli::commands();
    auto it = cmds.find(argv[1]);
    if (it == cmds.end()) {
        std::fprintf(stderr, "error: unknown command '%s'\n", argv[1]);
        usage();
        return 2;
    }
    return it->second.fn(argc, argv);
}
