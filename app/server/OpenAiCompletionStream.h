#pragma once
// text_completion stream chunks (SSE): {"choices": [{"text", "index", "logprobs", "finish_reason"}]},
// the prompt first when echo is on, a last chunk per choice with its finish_reason, the usage chunk
// with include_usage, then "data: [DONE]".

#include <vector>

#include "server/OpenAiFormat.h"
#include "server/StreamFormatter.h"

namespace hearth::app::server {

class OpenAiCompletionStream final : public StreamFormatter {
public:
    OpenAiCompletionStream(ResponseIdentity who, int choices, int choicesPerPrompt, bool includeUsage, int logprobs,
                           std::vector<std::string> echo, const Tokenizer& tokenizer);

    std::string onEvent(const ChoiceEvent& event, const ResponseAccumulator& soFar) override;
    std::string finish(const ResponseAccumulator& all) override;
    std::string keepAlive() const override { return ": keep-alive\n\n"; }
    const char* contentType() const override { return "text/event-stream"; }

private:
    std::string chunk(int choice, const std::string& text, nlohmann::json logprobs, const char* finish);
    std::string echoOnce(int choice);

    ResponseIdentity who_;
    int perPrompt_;
    bool includeUsage_;
    int logprobs_;
    std::vector<std::string> echo_;
    const Tokenizer& tok_;
    std::vector<bool> started_;
    std::vector<size_t> offsets_;  // text offset of the next token, per choice
};

}  // namespace hearth::app::server
