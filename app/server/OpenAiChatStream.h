#pragma once
// chat.completion.chunk events (SSE). Per choice: a first chunk whose delta carries the role, then
// content deltas (with logprobs when asked), then an empty delta with finish_reason. With
// include_usage every chunk has "usage": null and a last chunk has "choices": [] and the usage.
// A choice that fails mid-stream sends an error event ({"error": {...}}). Then "data: [DONE]".

#include <vector>

#include "server/OpenAiFormat.h"
#include "server/StreamFormatter.h"

namespace hearth::app::server {

class OpenAiChatStream final : public StreamFormatter {
public:
    OpenAiChatStream(ResponseIdentity who, int choices, bool includeUsage, bool logprobs, int topLogprobs,
                     const Tokenizer& tokenizer);

    std::string onEvent(const ChoiceEvent& event, const ResponseAccumulator& soFar) override;
    std::string finish(const ResponseAccumulator& all) override;
    std::string keepAlive() const override { return ": keep-alive\n\n"; }
    const char* contentType() const override { return "text/event-stream"; }

private:
    std::string chunk(int choice, nlohmann::json delta, nlohmann::json logprobs, const char* finish);
    std::string roleOnce(int choice);

    ResponseIdentity who_;
    bool includeUsage_, logprobs_;
    int topLogprobs_;
    const Tokenizer& tok_;
    std::vector<bool> roleSent_;
};

}  // namespace hearth::app::server
