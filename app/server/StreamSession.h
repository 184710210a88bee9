#pragma once
// A streamed response in progress: httplib calls pump() on the request's worker thread until the
// stream is over. pump() waits a short while for engine events, formats and writes them, and ends
// the request (cancelling the engine work) the moment the client is gone: it checks the socket
// before every wait and every write, so a disconnect is noticed within one engine step (or one
// poll interval when no tokens are flowing). While nothing is produced (a long prefill), it writes
// the format's keep-alive comment every keepAliveMs.
//
// Invariants: finish() is written once, after every choice ended; close() runs once (httplib's
// releaser) and cancels whatever is still running; the RequestScope gets the final status (200, or
// 499 when the client left early) and token counts.

#include <chrono>
#include <memory>

#include "server/GenerationJob.h"
#include "server/RequestScope.h"
#include "server/ResponseAccumulator.h"
#include "server/StreamFormatter.h"

namespace httplib {
class DataSink;
}

namespace hearth::app::server {

class StreamSession {
public:
    StreamSession(std::shared_ptr<RequestScope> scope, std::unique_ptr<GenerationJob> job,
                  std::unique_ptr<StreamFormatter> formatter, int choicesPerPrompt);

    bool pump(httplib::DataSink& sink);
    void close(bool completed);
    const char* contentType() const { return formatter_->contentType(); }

private:
    bool write(httplib::DataSink& sink, const std::string& bytes);
    void abandon();

    std::shared_ptr<RequestScope> scope_;
    std::unique_ptr<GenerationJob> job_;
    std::unique_ptr<StreamFormatter> formatter_;
    ResponseAccumulator acc_;
    std::chrono::steady_clock::time_point lastWrite_ = std::chrono::steady_clock::now();
    bool finished_ = false, closed_ = false, clientGone_ = false;
};

}  // namespace hearth::app::server
