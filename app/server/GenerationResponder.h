#pragma once
// The common tail of every generating route: build the engine requests (prompts x n choices),
// start them, and answer either as a stream (StreamSession behind httplib's chunked provider) or,
// once every choice has ended, as one JSON body.
//
// Invariants of buildRequests(): choice i belongs to prompt i / n; seeded requests get seed + i so
// that choices differ but repeat; stop strings are the client's plus the template's.

#include <functional>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/GenerationJob.h"
#include "server/PromptBuilder.h"
#include "server/RequestParams.h"
#include "server/RequestScope.h"
#include "server/StreamFormatter.h"

namespace httplib {
struct Response;
}

namespace hearth::app::server {

class GenerationResponder {
public:
    static std::vector<GenerationRequest> buildRequests(const CommonParams& params, const std::vector<BuiltPrompt>& prompts,
                                                        int defaultMaxTokens, int logprobs, const std::string& fairnessKey);

    using BodyBuilder = std::function<nlohmann::json(const ResponseAccumulator&)>;
    // stream != null: streamed with that formatter; otherwise waits and answers body(acc).
    static void respond(httplib::Response& res, std::shared_ptr<RequestScope> scope, std::unique_ptr<GenerationJob> job,
                        std::unique_ptr<StreamFormatter> stream, const BodyBuilder& body, int choicesPerPrompt);
};

}  // namespace hearth::app::server
