#pragma once
// Turns a request's choice events into the bytes of a streamed response (SSE for OpenAI, NDJSON for
// Ollama). One formatter per response; called on the HTTP worker thread only.
//
// Invariants: the concatenation of everything returned is a well-formed stream of the format:
// onEvent() output is whole events/lines, finish() closes the stream (OpenAI's "data: [DONE]",
// Ollama's final "done": true line) and is called once, after every choice ended; keepAlive() is
// something the client ignores ("" where the format has no comments).

#include <string>

#include "server/ChoiceEvent.h"
#include "server/ResponseAccumulator.h"

namespace hearth::app::server {

class StreamFormatter {
public:
    virtual ~StreamFormatter() = default;
    virtual std::string onEvent(const ChoiceEvent& event, const ResponseAccumulator& soFar) = 0;
    virtual std::string finish(const ResponseAccumulator& all) = 0;
    virtual std::string keepAlive() const = 0;
    virtual const char* contentType() const = 0;
};

}  // namespace hearth::app::server
