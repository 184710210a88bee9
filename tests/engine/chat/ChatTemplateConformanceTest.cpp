// Every real chat template in ../shared/testdata/chat_templates, rendered on every conversation in
// conversations.json, must give byte for byte what Python's jinja2 gives (render_jinja2.py, with
// the environment transformers uses); where jinja2 raises, we must fail too.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "../TestPaths.h"
#include "hearth/chat_template.h"

namespace {

using nlohmann::ordered_json;

// Keep in sync with FIXED_NOW in render_jinja2.py.
std::tm fixedNow() {
    std::tm t{};
    t.tm_year = 2025 - 1900;
    t.tm_mon = 2;
    t.tm_mday = 14;
    t.tm_hour = 9;
    t.tm_min = 26;
    t.tm_sec = 53;
    return t;
}

std::string readFile(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// The Python exception class a failure corresponds to: jinja2's "TypeError: ..." / our
// "chat template: TypeError: ... (line L, column C)".
std::string errorKind(const std::string& message) {
    std::string m = message;
    for (const char* prefix : {"chat template does not parse: ", "chat template: "})
        if (m.rfind(prefix, 0) == 0) m = m.substr(std::strlen(prefix));
    std::string kind = m.substr(0, m.find(':'));
    if (kind == "raise_exception") return "TemplateError";
    if (kind == "TemplateAssertionError" || kind == "SyntaxError") return "TemplateSyntaxError";  // compile-time failures
    if (kind == "ZeroDivisionError" || kind == "OverflowError") return "ArithmeticError";
    return kind;
}

// Where two renderings first differ, with some context from each.
std::string firstDifference(const std::string& want, const std::string& got) {
    size_t i = 0;
    while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
    const size_t from = i > 60 ? i - 60 : 0;
    return "first difference at byte " + std::to_string(i) + "\n  jinja2: " + ordered_json(want.substr(from, 160)).dump() +
           "\n  hearth: " + ordered_json(got.substr(from, 160)).dump();
}

// Runs the reference renderer once for all tests in this file.
class ChatTemplateConformance : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        char outPath[] = "/tmp/hearth_jinja2_XXXXXX";
        const int fd = mkstemp(outPath);
        ASSERT_GE(fd, 0);
        close(fd);
        const std::string cmd = "python3 '" + sourceFile("render_jinja2.py") + "' '" + templateDir() + "' '" +
                                sourceFile("conversations.json") + "' '" + outPath + "' '" + sourceFile("snippets.txt") + "'";
        const int rc = std::system(cmd.c_str());
        if (rc == 0) reference_ = ordered_json::parse(readFile(outPath));
        std::filesystem::remove(outPath);
        ASSERT_EQ(rc, 0) << "the reference renderer failed (needs python3 with jinja2): " << cmd;
    }

    static std::string templateDir() { return hearth::test::testdataPath("chat_templates"); }
    static std::string sourceFile(const std::string& name) { return hearth::test::sourcePath("tests/engine/chat/" + name); }

    static ordered_json reference_;
};

ordered_json ChatTemplateConformance::reference_;

// The same splitting as read_snippets() in render_jinja2.py.
std::vector<std::pair<std::string, std::string>> readSnippets(const std::string& path) {
    const std::string text = readFile(path);
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) lines.push_back(text.substr(start, nl - start));
    if (start < text.size()) lines.push_back(text.substr(start));
    std::vector<std::pair<std::string, std::string>> blocks;
    std::vector<bool> started;
    for (const auto& line : lines) {
        if (line.rfind("### ", 0) == 0) {
            blocks.emplace_back(line.substr(4), "");
            started.push_back(false);
        } else if (!blocks.empty()) {
            if (started.back()) blocks.back().second += "\n";
            blocks.back().second += line;
            started.back() = true;
        }
    }
    return blocks;
}

TEST_F(ChatTemplateConformance, MatchesJinja2OnEveryTemplateAndConversation) {
    ASSERT_FALSE(reference_.is_null());
    const std::string templateDir = ChatTemplateConformance::templateDir();
    const std::string conversationsPath = sourceFile("conversations.json");
    const ordered_json& reference = reference_;
    std::map<std::string, ordered_json> contexts;
    for (const auto& c : ordered_json::parse(readFile(conversationsPath))) contexts[c["id"].get<std::string>()] = c["context"];

    hearth::ChatTemplateRenderOptions options;
    options.fixedNow = fixedNow();
    std::map<std::string, hearth::Result<hearth::ChatTemplate>> parsed;
    std::set<std::string> templates;
    size_t compared = 0, matched = 0, bothRaised = 0;
    // HEARTH_TEMPLATE_TEST_VERBOSE=1 lists the cases where both raise, with both messages.
    const bool verbose = std::getenv("HEARTH_TEMPLATE_TEST_VERBOSE") != nullptr;
    std::map<std::string, size_t> failuresPerTemplate;
    for (const auto& r : reference["results"]) {
        const std::string name = r["template"].get<std::string>();
        const std::string conv = r["conversation"].get<std::string>();
        templates.insert(name);
        auto it = parsed.find(name);
        if (it == parsed.end())
            it = parsed.emplace(name, hearth::ChatTemplate::parse(readFile(std::filesystem::path(templateDir) / name))).first;
        ++compared;
        const bool jinjaRaised = r.contains("error");
        std::string problem;
        // Both failing counts only when it is the same kind of failure (a TypeError for a TypeError).
        auto sameFailure = [&](const std::string& ours) {
            const std::string theirs = r["error"].get<std::string>();
            if (errorKind(ours) == errorKind(theirs)) return true;
            problem = "both fail, differently:\n  jinja2: " + theirs + "\n  hearth: " + ours;
            return false;
        };
        if (!it->second.ok()) {
            if (!jinjaRaised) problem = "we fail to parse it: " + it->second.error().message;
            else if (sameFailure(it->second.error().message)) ++matched, ++bothRaised;
        } else {
            auto out = it->second->render(contexts.at(conv), options);
            if (jinjaRaised) {
                if (verbose && !out.ok())
                    std::printf("both raise: %s x %s\n  jinja2: %s\n  hearth: %s\n", name.c_str(), conv.c_str(),
                                r["error"].get<std::string>().c_str(), out.error().message.c_str());
                if (out.ok()) problem = "jinja2 raised (" + r["error"].get<std::string>() + ") but we rendered";
                else if (sameFailure(out.error().message)) ++matched, ++bothRaised;
            } else if (!out.ok()) {
                problem = "we failed: " + out.error().message;
            } else if (*out != r["output"].get<std::string>()) {
                problem = firstDifference(r["output"].get<std::string>(), *out);
            } else {
                ++matched;
            }
        }
        if (!problem.empty()) {
            ++failuresPerTemplate[name];
            ADD_FAILURE() << name << " x " << conv << ": " << problem;
        }
    }
    std::printf("[chat templates] jinja2 %s: %zu templates x %zu conversations = %zu renderings compared, %zu matched "
                "(%zu of them raise in both), %zu differ\n",
                reference["jinja2_version"].get<std::string>().c_str(), templates.size(), contexts.size(), compared,
                matched, bothRaised, compared - matched);
    for (const auto& [name, n] : failuresPerTemplate) std::printf("  %s: %zu differ\n", name.c_str(), n);
    EXPECT_GE(templates.size(), 50u);
    EXPECT_EQ(compared, templates.size() * contexts.size());
    EXPECT_EQ(matched, compared);
}

}  // namespace

namespace {

// Small templates exercising one feature each (snippets.txt), compared the same way.
TEST_F(ChatTemplateConformance, MatchesJinja2OnSnippets) {
    ASSERT_FALSE(reference_.is_null());
    const auto blocks = readSnippets(sourceFile("snippets.txt"));
    ordered_json context;
    std::map<std::string, std::string> sources;
    for (const auto& [name, text] : blocks) {
        if (name == "@context") context = ordered_json::parse(text);
        else sources[name] = text;
    }
    ASSERT_TRUE(context.is_object());
    hearth::ChatTemplateRenderOptions options;
    options.fixedNow = fixedNow();
    size_t compared = 0, matched = 0;
    for (const auto& r : reference_["snippets"]) {
        const std::string name = r["snippet"].get<std::string>();
        ASSERT_TRUE(sources.count(name)) << name;
        ++compared;
        auto t = hearth::ChatTemplate::parse(sources[name]);
        hearth::Result<std::string> out = t ? t->render(context, options) : hearth::Result<std::string>(t.error());
        if (r.contains("error")) {
            if (out.ok()) ADD_FAILURE() << name << ": jinja2 raised (" << r["error"].get<std::string>() << ") but we rendered " << ordered_json(*out).dump();
            else if (errorKind(out.error().message) != errorKind(r["error"].get<std::string>()))
                ADD_FAILURE() << name << ": both fail, differently:\n  jinja2: " << r["error"].get<std::string>() << "\n  hearth: " << out.error().message;
            else ++matched;
        } else if (!out.ok()) {
            ADD_FAILURE() << name << ": we failed: " << out.error().message;
        } else if (*out != r["output"].get<std::string>()) {
            ADD_FAILURE() << name << ": " << firstDifference(r["output"].get<std::string>(), *out);
        } else {
            ++matched;
        }
    }
    std::printf("[chat template snippets] %zu compared, %zu matched\n", compared, matched);
    EXPECT_EQ(compared, sources.size());
    EXPECT_EQ(matched, compared);
}

}  // namespace
