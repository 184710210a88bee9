// hearth-cli template (--template FILE.jinja | -m MODEL.gguf) --context CONTEXT.json: renders a chat
// template and prints the text exactly as rendered (no newline added).
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "CliArgs.h"
#include "CommandRegistry.h"
#include "hearth/chat_template.h"
#include "hearth/model_info.h"
#include "hearth/tokenizer.h"

namespace hearth::cli {
namespace {

bool readFile(const std::string& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::stringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return !f.bad();
}

int runTemplate(int argc, char** argv) {
    CliArgs args(argc, argv, 2, {"template", "t", "m", "model", "context", "c"});
    auto templatePath = args.get("template", "t");
    auto model = args.get("model", "m");
    auto contextPath = args.get("context", "c");
    if (auto e = args.finish(); !e.empty()) return fail(e, 2);
    if (templatePath.has_value() == model.has_value())
        return fail("template needs exactly one of --template FILE.jinja or -m MODEL.gguf", 2);
    if (!contextPath) return fail("template needs --context CONTEXT.json", 2);

    std::string contextText;
    if (!readFile(*contextPath, contextText)) return fail("cannot read " + *contextPath);
    nlohmann::ordered_json context;
    try {
        context = nlohmann::ordered_json::parse(contextText);
    } catch (const nlohmann::json::exception& e) {
        return fail(*contextPath + " is not valid JSON: " + e.what());
    }
    if (!context.is_object()) return fail(*contextPath + " must hold a JSON object (messages, add_generation_prompt, ...)");

    std::string source;
    bool useFallback = false;
    if (templatePath) {
        if (!readFile(*templatePath, source)) return fail("cannot read " + *templatePath);
    } else {
        auto info = inspectModel(*model);
        if (!info) return fail(info.error().toString());
        if (info->hasChatTemplate) {
            source = info->chatTemplate;
        } else {
            useFallback = true;
            std::fprintf(stderr, "note: %s has no chat template; using the plain fallback format\n", model->c_str());
        }
        // bos_token / eos_token default to the model's own, as transformers passes them.
        if (!context.contains("bos_token") || !context.contains("eos_token")) {
            auto tok = Tokenizer::fromGguf(*model);
            if (!tok) return fail(tok.error().toString());
            if (!context.contains("bos_token") && (*tok)->bos() >= 0) context["bos_token"] = (*tok)->bosText();
            if (!context.contains("eos_token") && (*tok)->eos() >= 0) context["eos_token"] = (*tok)->eosText();
        }
    }

    auto parsed = useFallback ? Result<ChatTemplate>(ChatTemplate::fallback()) : ChatTemplate::parse(source);
    if (!parsed) return fail(parsed.error().message);
    auto text = parsed->render(context);
    if (!text) return fail(text.error().message);
    std::fwrite(text->data(), 1, text->size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}

RegisterCommand reg("template",
                    "template (--template FILE.jinja | -m MODEL) --context CONTEXT.json   render a chat template",
                    runTemplate);

}  // namespace
}  // namespace hearth::cli
