#pragma once
// hearth-cli's subcommands register themselves here (one file per command), so adding a command
// never touches main.cpp.

#include <functional>
#include <map>
#include <string>

namespace hearth::cli {

using CommandFn = std::function<int(int argc, char** argv)>;  // argv[0] = "hearth-cli", argv[1] = command

struct Command {
    std::string usage;  // one line: "run -m MODEL -p PROMPT [-n N] ..."
    CommandFn fn;
};

std::map<std::string, Command>& commands();

struct RegisterCommand {
    RegisterCommand(const std::string& name, std::string usage, CommandFn fn) {
        commands()[name] = Command{std::move(usage), std::move(fn)};
    }
};

// Prints "error: message" to stderr and returns the exit code to use.
int fail(const std::string& message, int code = 1);

}  // namespace hearth::cli
