#include "server/StreamSession.h"

#include <httplib.h>

#include "server/ServerContext.h"

namespace hearth::app::server {

StreamSession::StreamSession(std::shared_ptr<RequestScope> scope, std::unique_ptr<GenerationJob> job,
                             std::unique_ptr<StreamFormatter> formatter, int choicesPerPrompt)
    : scope_(std::move(scope)), job_(std::move(job)), formatter_(std::move(formatter)),
      acc_(job_->choices(), choicesPerPrompt) {
    scope_->streaming = true;
    scope_->context.streamStarted();
}

void StreamSession::abandon() {
    clientGone_ = true;
    job_->cancel();
}

bool StreamSession::write(httplib::DataSink& sink, const std::string& bytes) {
    if (bytes.empty()) return true;
    if (!sink.is_writable() || !sink.write(bytes.data(), bytes.size())) {
        abandon();
        return false;
    }
    lastWrite_ = std::chrono::steady_clock::now();
    return true;
}

bool StreamSession::pump(httplib::DataSink& sink) {
    if (finished_) return false;
    const ServerConfig& cfg = scope_->context.config();
    if (!sink.is_writable()) {  // the client closed the connection
        abandon();
        return false;
    }
    if (scope_->context.stopping()) {
        job_->cancel();
        return false;
    }
    const auto events = job_->next(std::chrono::milliseconds(cfg.pollMs));
    std::string out;
    for (const auto& e : events) {
        acc_.add(e);
        out += formatter_->onEvent(e, acc_);
    }
    if (events.empty() && std::chrono::steady_clock::now() - lastWrite_ >= std::chrono::milliseconds(cfg.keepAliveMs))
        out += formatter_->keepAlive();
    if (job_->done()) out += formatter_->finish(acc_);
    if (!write(sink, out)) return false;
    if (job_->done()) {
        finished_ = true;
        sink.done();
    }
    return true;
}

void StreamSession::close(bool completed) {
    if (closed_) return;
    closed_ = true;
    if (!job_->done()) {
        job_->cancel();
        clientGone_ = clientGone_ || !completed;
    }
    scope_->entry.status = clientGone_ && !finished_ ? 499 : 200;
    scope_->entry.promptTokens = acc_.promptTokens();
    scope_->entry.completionTokens = acc_.completionTokens();
    scope_->context.streamEnded();
}

}  // namespace hearth::app::server
