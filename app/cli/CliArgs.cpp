#include "CliArgs.h"

#include <cstdlib>

namespace hearth::cli {

CliArgs::CliArgs(int argc, char** argv, int first, std::set<std::string> valueOptions) {
    bool onlyPositionals = false;
    for (int i = first; i < argc; ++i) {
        std::string a = argv[i];
        if (onlyPositionals || a.size() < 2 || a[0] != '-' || (a[1] >= '0' && a[1] <= '9')) {
            positionals_.push_back(a);
            continue;
        }
        if (a == "--") { onlyPositionals = true; continue; }
        std::string name = a.substr(a[1] == '-' ? 2 : 1);
        std::optional<std::string> value;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        } else if (valueOptions.count(name)) {
            if (i + 1 >= argc) {
                if (error_.empty()) error_ = "option " + a + " needs a value";
                continue;
            }
            value = argv[++i];
        }
        opts_.push_back({name, value});
    }
}

std::optional<std::string> CliArgs::get(const std::string& longName, const std::string& shortName) {
    seen_.insert(longName);
    if (!shortName.empty()) seen_.insert(shortName);
    std::optional<std::string> v;
    for (const auto& o : opts_)
        if ((o.name == longName || (!shortName.empty() && o.name == shortName)) && o.value) v = o.value;
    return v;
}

std::vector<std::string> CliArgs::all(const std::string& longName, const std::string& shortName) {
    seen_.insert(longName);
    if (!shortName.empty()) seen_.insert(shortName);
    std::vector<std::string> v;
    for (const auto& o : opts_)
        if ((o.name == longName || (!shortName.empty() && o.name == shortName)) && o.value) v.push_back(*o.value);
    return v;
}

std::string CliArgs::getOr(const std::string& longName, const std::string& shortName, const std::string& fallback) {
    auto v = get(longName, shortName);
    return v ? *v : fallback;
}

long long CliArgs::intOr(const std::string& longName, const std::string& shortName, long long fallback) {
    auto v = get(longName, shortName);
    if (!v) return fallback;
    char* end = nullptr;
    long long x = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0') {
        if (error_.empty()) error_ = "option --" + longName + " expects an integer, got '" + *v + "'";
        return fallback;
    }
    return x;
}

double CliArgs::floatOr(const std::string& longName, const std::string& shortName, double fallback) {
    auto v = get(longName, shortName);
    if (!v) return fallback;
    char* end = nullptr;
    double x = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0') {
        if (error_.empty()) error_ = "option --" + longName + " expects a number, got '" + *v + "'";
        return fallback;
    }
    return x;
}

bool CliArgs::flag(const std::string& longName, const std::string& shortName) {
    seen_.insert(longName);
    if (!shortName.empty()) seen_.insert(shortName);
    for (const auto& o : opts_)
        if (o.name == longName || (!shortName.empty() && o.name == shortName)) return true;
    return false;
}

std::string CliArgs::finish() const {
    if (!error_.empty()) return error_;
    for (const auto& o : opts_)
        if (!seen_.count(o.name)) return "unknown option '" + (o.name.size() == 1 ? "-" : std::string("--")) + o.name + "'";
    return {};
}

}  // namespace hearth::cli
