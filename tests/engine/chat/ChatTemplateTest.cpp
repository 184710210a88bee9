// hearth::ChatTemplate beyond conformance: errors that name the construct and its position, the
// fallback format, the context builder, hostile templates, threads, and render speed.
#include <gtest/gtest.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "../TestPaths.h"
#include "hearth/chat_template.h"

namespace {

using nlohmann::ordered_json;

std::string readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

hearth::Result<std::string> render(const std::string& source, const ordered_json& context = ordered_json::object()) {
    auto t = hearth::ChatTemplate::parse(source);
    if (!t) return t.error();
    return t->render(context);
}

// The error message of a failed parse or render (empty when it succeeded).
std::string failure(const std::string& source, const ordered_json& context = ordered_json::object()) {
    auto r = render(source, context);
    return r.ok() ? std::string() : r.error().message;
}

ordered_json conversation(int turns) {
    ordered_json messages = ordered_json::array();
    messages.push_back({{"role", "system"}, {"content", "You are a helpful assistant."}});
    for (int i = 0; i < turns; ++i) {
        messages.push_back({{"role", "user"}, {"content", "Question " + std::to_string(i) + ": what is " + std::to_string(i) + " squared?"}});
        messages.push_back({{"role", "assistant"}, {"content", std::to_string(i) + " squared is " + std::to_string(i * i) + "."}});
    }
    messages.push_back({{"role", "user"}, {"content", "Thanks."}});
    return messages;
}

TEST(ChatTemplate, UnsupportedConstructsNameThemselvesAndTheirPosition) {
    std::string e = failure("ok\n  {% include 'other.jinja' %}");
    EXPECT_NE(e.find("include"), std::string::npos) << e;
    EXPECT_NE(e.find("line 2, column 6"), std::string::npos) << e;

    e = failure("{{ 'some words'|wordwrap(5) }}");
    EXPECT_NE(e.find("wordwrap"), std::string::npos) << e;
    EXPECT_NE(e.find("line 1, column"), std::string::npos) << e;

    e = failure("{{ 'x'.encode('utf-8') }}");
    EXPECT_NE(e.find("str.encode"), std::string::npos) << e;

    e = failure("{{ 'a long text'|truncate(5) }}");
    EXPECT_NE(e.find("truncate"), std::string::npos) << e;

    e = failure("{{ '{:>{width}}'.format('a', width=3) }}");
    EXPECT_NE(e.find("nested replacement fields"), std::string::npos) << e;

    // Printing a function would print a memory address in Python: refused, never made up.
    e = failure("{{ {'a': 1}.items }}");
    EXPECT_NE(e.find("items"), std::string::npos) << e;

    e = failure("{% extends 'base.jinja' %}");
    EXPECT_NE(e.find("extends"), std::string::npos) << e;
}

TEST(ChatTemplate, SyntaxAndRuntimeErrorsCarryLineAndColumn) {
    std::string e = failure("line one\n{{ 1 + }}");
    EXPECT_NE(e.find("line 2"), std::string::npos) << e;
    e = failure("{% if true %}\n{{ missing.attr }}\n{% endif %}");
    EXPECT_NE(e.find("'missing' is undefined"), std::string::npos) << e;
    EXPECT_NE(e.find("line 2, column 11"), std::string::npos) << e;  // the '.' of missing.attr
    e = failure("{{ raise_exception('Only user and assistant roles are supported!') }}");
    EXPECT_NE(e.find("Only user and assistant roles are supported!"), std::string::npos) << e;
    e = failure("{% for m in messages %}{{ m.content + 1 }}{% endfor %}",
                {{"messages", ordered_json::array({{{"content", "text"}}})}});
    EXPECT_NE(e.find("TypeError"), std::string::npos) << e;
}

TEST(ChatTemplate, FallbackIsAPlainTranscript) {
    hearth::ChatTemplateInputs in;
    in.messages = ordered_json::array({
        {{"role", "system"}, {"content", "Be brief."}},
        {{"role", "user"}, {"content", ordered_json::array({{{"type", "text"}, {"text", "Weather in "}}, {{"type", "text"}, {"text", "Oslo?"}}})}},
        {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", ordered_json::array({{{"id", "c1"}, {"type", "function"},
            {"function", {{"name", "get_weather"}, {"arguments", {{"city", "Oslo"}}}}}}})}},
        {{"role", "tool"}, {"tool_call_id", "c1"}, {"content", "snow"}},
    });
    in.tools = ordered_json::array({{{"type", "function"}, {"function", {{"name", "get_weather"}}}}});
    in.bosToken = "<s>";
    auto out = hearth::ChatTemplate::fallback().render(in.toContext());
    ASSERT_TRUE(out.ok()) << out.error().message;
    EXPECT_EQ(*out,
              "<s>Tools: [{\"type\": \"function\", \"function\": {\"name\": \"get_weather\"}}]\n\n"
              "System: Be brief.\n\n"
              "User: Weather in Oslo?\n\n"
              "Assistant:\nTool call: {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}\n\n"
              "Tool: snow\n\n"
              "Assistant:");
    in.addGenerationPrompt = false;
    in.tools = nullptr;
    in.messages = ordered_json::array({{{"role", "user"}, {"content", "Hi"}}});
    out = hearth::ChatTemplate::fallback().render(in.toContext());
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(*out, "<s>User: Hi\n\n");
    EXPECT_NE(hearth::ChatTemplate::fallbackSource().find("Assistant:"), std::string_view::npos);
}

TEST(ChatTemplate, ContextBuilderPassesWhatTransformersPasses) {
    hearth::ChatTemplateInputs in;
    in.messages = ordered_json::array({{{"role", "user"}, {"content", "Hi"}}});
    in.bosToken = "<s>";
    in.eosToken = "</s>";
    in.extra = {{"enable_thinking", false}, {"bos_token", "<bos>"}};
    const ordered_json c = in.toContext();
    EXPECT_TRUE(c["tools"].is_null());
    EXPECT_TRUE(c.contains("documents"));
    EXPECT_EQ(c["add_generation_prompt"], true);
    EXPECT_EQ(c["eos_token"], "</s>");
    EXPECT_EQ(c["bos_token"], "<bos>");  // extra variables win
    EXPECT_EQ(c["enable_thinking"], false);
    auto out = render("{{ tools is none }}|{{ tools is defined }}|{{ enable_thinking }}|{{ bos_token }}", c);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(*out, "True|True|False|<bos>");
}

TEST(ChatTemplate, KeyOrderIsKeptWithOrderedJsonAndSortedWithJson) {
    auto t = hearth::ChatTemplate::parse("{{ d|tojson }}");
    ASSERT_TRUE(t.ok());
    ordered_json ordered = {{"d", {{"zeta", 1}, {"alpha", 2}}}};
    EXPECT_EQ(*t->render(ordered), "{\"zeta\": 1, \"alpha\": 2}");
    nlohmann::json sorted = {{"d", {{"zeta", 1}, {"alpha", 2}}}};
    EXPECT_EQ(*t->render(sorted), "{\"alpha\": 2, \"zeta\": 1}");
    EXPECT_FALSE(t->render(ordered_json::array()).ok());
}

TEST(ChatTemplate, StrftimeNowUsesTheClockUnlessFixed) {
    auto t = hearth::ChatTemplate::parse("{{ strftime_now('%Y') }}");
    ASSERT_TRUE(t.ok());
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    EXPECT_EQ(*t->render(ordered_json::object()), std::to_string(local.tm_year + 1900));
    hearth::ChatTemplateRenderOptions o;
    o.fixedNow = std::tm{};
    o.fixedNow->tm_year = 2031 - 1900;
    o.fixedNow->tm_mday = 1;
    EXPECT_EQ(*t->render(ordered_json::object(), o), "2031");
}

TEST(ChatTemplate, HostileTemplatesFailCleanly) {
    EXPECT_NE(failure("{{ " + std::string(5000, '(') + "1" + std::string(5000, ')') + " }}").find("deeper"), std::string::npos);
    std::string nested;
    for (int i = 0; i < 1000; ++i) nested += "{% if true %}";
    EXPECT_NE(failure(nested).find("deeper"), std::string::npos);
    EXPECT_NE(failure("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}").find("nested deeper"), std::string::npos);
    EXPECT_NE(failure("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}").find("loop iterations"),
              std::string::npos);
    EXPECT_NE(failure("{{ 'x' * 1000000000 }}").find("too large"), std::string::npos);
    EXPECT_NE(failure("{{ range(1000000) }}").find("Range too big"), std::string::npos);
    EXPECT_NE(failure("{% set ns = namespace(s='ab') %}{% for i in range(30) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}").find("MiB"), std::string::npos);
    EXPECT_NE(failure("{{ 9223372036854775807 + 1 }}").find("overflow"), std::string::npos);
    for (const char* bad : {"{{", "{%", "{#", "{{ 'open", "{% if %}", "{% for %}", "{{ a[ }}", "{{ ) }}", "{% endfor %}",
                            "{% raw %}never ends", "{{ {'a': } }}", "{% set = 1 %}", "{{ a | }}", "{{ 1 is }}"}) {
        EXPECT_FALSE(failure(bad).empty()) << bad;
    }
    // Random bytes and random fragments of real syntax: always a result or an error, never a crash.
    std::mt19937 rng(1234);
    const std::vector<std::string> pieces = {"{{", "}}", "{%", "%}", "{#", "#}", "-", "+", " if ", " for x in ", " endfor ",
                                             " endif ", "(", ")", "[", "]", "'", "\"", "|", "x", "1", ".", ",", "\n",
                                             " set ", "=", " macro ", " endmacro ", " is ", " not ", "~", "*"};
    for (int i = 0; i < 2000; ++i) {
        std::string src;
        const int n = static_cast<int>(rng() % 24);
        for (int k = 0; k < n; ++k) src += (rng() % 8 == 0) ? std::string(1, static_cast<char>(rng() % 256)) : pieces[rng() % pieces.size()];
        (void)render(src, {{"x", ordered_json::array({1, 2})}});
    }
}

TEST(ChatTemplate, RendersFromManyThreadsAtOnce) {
    auto t = hearth::ChatTemplate::parse(readFile(hearth::test::testdataPath("chat_templates/Qwen-Qwen3-0.6B.jinja")));
    ASSERT_TRUE(t.ok()) << t.error().message;
    ordered_json context = {{"messages", conversation(10)}, {"add_generation_prompt", true}};
    const std::string expected = *t->render(context);
    std::vector<std::thread> threads;
    std::vector<int> mismatches(4, 0);
    for (int k = 0; k < 4; ++k) {
        threads.emplace_back([&, k] {
            for (int i = 0; i < 50; ++i) {
                auto out = t->render(context);
                if (!out.ok() || *out != expected) ++mismatches[k];
            }
        });
    }
    for (auto& th : threads) th.join();
    for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST(ChatTemplate, RendersAFiftyMessageConversationQuickly) {
    const ordered_json context = {{"messages", conversation(24)}, {"add_generation_prompt", true},
                                  {"bos_token", "<s>"}, {"eos_token", "</s>"}};
    ASSERT_EQ(context["messages"].size(), 50u);
    for (const char* name : {"Qwen-Qwen3-0.6B.jinja", "meta-llama-Llama-3.1-8B-Instruct.jinja", "google-gemma-4-31B-it-interleaved.jinja"}) {
        auto t = hearth::ChatTemplate::parse(readFile(hearth::test::testdataPath(std::string("chat_templates/") + name)));
        ASSERT_TRUE(t.ok()) << name << ": " << t.error().message;
        ASSERT_TRUE(t->render(context).ok()) << name;
        // CPU time of this thread: other processes on a shared machine do not count.
        auto cpuMicros = [] {
            timespec ts{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
        };
        const int runs = 200;
        const double start = cpuMicros();
        size_t bytes = 0;
        for (int i = 0; i < runs; ++i) bytes += t->render(context)->size();
        const double us = (cpuMicros() - start) / runs;
        std::printf("[chat template speed] %s: %.0f us of CPU per render of 50 messages (%zu bytes)\n", name, us, bytes / runs);
        // "Well under a millisecond or two"; the bound leaves room for a loaded 2-core CI machine.
        EXPECT_LT(us, 2000.0) << name;
    }
}

}  // namespace
