#pragma once
// A small command-line parser for hearth-cli: "-m X", "--model X", "--model=X", flags, positionals.
//
// Invariants: the options that take a value are declared up front, so "--flag positional" is never
// misread; every option the command reads is looked up (get/flag) before finish(), and finish()
// reports the first option nobody looked up, so a typo is an error rather than silently ignored.

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hearth::cli {

class CliArgs {
public:
    // valueOptions: names (without dashes) of the options that take a value, e.g. {"m", "model"}.
    CliArgs(int argc, char** argv, int first, std::set<std::string> valueOptions);

    std::optional<std::string> get(const std::string& longName, const std::string& shortName = "");
    std::vector<std::string> all(const std::string& longName, const std::string& shortName = "");
    std::string getOr(const std::string& longName, const std::string& shortName, const std::string& fallback);
    // Numeric options; a malformed number records an error (see finish()).
    long long intOr(const std::string& longName, const std::string& shortName, long long fallback);
    double floatOr(const std::string& longName, const std::string& shortName, double fallback);
    bool flag(const std::string& longName, const std::string& shortName = "");

    const std::vector<std::string>& positionals() const { return positionals_; }
    // Empty when all is well; otherwise the message to print.
    std::string finish() const;

private:
    struct Opt {
        std::string name;
        std::optional<std::string> value;
    };
    std::vector<Opt> opts_;
    std::vector<std::string> positionals_;
    std::set<std::string> seen_;
    std::string error_;
};

}  // namespace hearth::cli
