#include "runtime/RequestStream.h"

#include "backend/Backend.h"

namespace hearth {
namespace {
double msBetween(RequestStream::Clock::time_point a, RequestStream::Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

RequestStream::RequestStream(RequestId id, std::shared_ptr<TokenSink> sink, std::shared_ptr<const Tokenizer> tokenizer,
                             const GenerationRequest& request, Clock::time_point submitted)
    : id_(id),
      sink_(std::move(sink)),
      tokenizer_(std::move(tokenizer)),
      stops_(request.stop),
      sampler_(request.sampling),
      logprobs_(request.sampling.logprobs),
      submitted_(submitted),
      last_(submitted) {
    if (tokenizer_) decoder_.emplace(tokenizer_);
    if (request.ignoreEos && tokenizer_ && !tokenizer_->endOfGeneration().empty())
        sampler_.setBannedTokens(tokenizer_->endOfGeneration());
}

bool RequestStream::deviceSamplable() const {
    const SamplingParams& p = sampler_.params();
    const bool bansFit = sampler_.bannedTokens().size() <= static_cast<size_t>(Backend::RowSampling::kMaxBanned);
    return bansFit && !constraint_ && logprobs_ == 0 && p.repeatPenalty == 1.0f && p.frequencyPenalty == 0.0f &&
           p.presencePenalty == 0.0f;
}

double RequestStream::acceptToken(TokenId token, bool isStopToken, std::optional<TokenLogprob> logprob,
                                  Clock::time_point now) {
    double gap;
    if (!hasFirst_) {
        hasFirst_ = true;
        ttftMs_ = gap = msBetween(submitted_, now);
    } else {
        gap = msBetween(last_, now);
        itlSumMs_ += gap;
        ++itlCount_;
    }
    last_ = now;
    if (isStopToken || stops_.matched()) return gap;
    stepTokens_.push_back(token);
    if (logprob && logprobs_ > 0) stepLogprobs_.push_back(std::move(*logprob));
    if (decoder_) stepText_ += stops_.push(decoder_->push(token));
    return gap;
}

void RequestStream::emitStep() {
    if (done_ || (stepTokens_.empty() && stepText_.empty())) return;
    sink_->onTokens(id_, stepTokens_, stepText_, logprobs_ > 0 ? &stepLogprobs_ : nullptr);
    stepTokens_.clear();
    stepText_.clear();
    stepLogprobs_.clear();
}

void RequestStream::finish(FinishReason reason, Usage usage, Clock::time_point now) {
    if (done_) return;
    if (decoder_ && !stops_.matched()) {
        stepText_ += stops_.push(decoder_->finish());
        stepText_ += stops_.flush();
    }
    emitStep();
    usage.ttftMs = hasFirst_ ? ttftMs_ : 0;
    usage.totalMs = msBetween(submitted_, now);
    usage.meanItlMs = itlCount_ ? itlSumMs_ / itlCount_ : 0;
    done_ = true;
    sink_->onFinished(id_, reason, usage);
    sink_.reset();
}

void RequestStream::fail(const Error& error) {
    if (done_) return;
    emitStep();
    done_ = true;
    sink_->onError(id_, error);
    sink_.reset();
}

}  // namespace hearth
