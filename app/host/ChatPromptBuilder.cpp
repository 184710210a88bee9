#include "host/ChatPromptBuilder.h"

#include "host/InferenceBackend.h"

#include <algorithm>
#include <vector>

namespace hearth::app {

Result<GenerationRequest> ChatPromptBuilder::build(const SharedBackend& backend, const QString& systemPrompt,
                                                   const QList<ChatTurn>& turns, const ChatSampling& sampling,
                                                   const QString& user) {
    if (backend_.lock() != backend || !formatter_) {
        auto created = ChatFormatter::create(backend->chatTemplate(), backend->tokenizer());
        if (!created) return created.error();
        formatter_.emplace(std::move(*created));
        backend_ = backend;
    }
    // Oldest turns go first when the conversation no longer fits the context next to the reply
    // (a leading assistant turn goes with its question); the latest message always stays. The
    // candidate starts are 0, every later user turn, and the last turn; a later start never gives
    // a longer prompt, so a binary search finds the earliest start that fits in O(log n) renders.
    const int context = backend->contextLength();
    const int reserve = context > 0 ? std::clamp(sampling.maxTokens, 16, std::max(16, context / 2)) : 0;
    auto render = [&](qsizetype start) -> Result<ChatPrompt> {
        ChatTemplateInputs in;
        if (!systemPrompt.trimmed().isEmpty())
            in.messages.push_back({{"role", "system"}, {"content", systemPrompt.toStdString()}});
        for (qsizetype i = start; i < turns.size(); ++i)
            in.messages.push_back({{"role", turns[i].role.toStdString()}, {"content", turns[i].content.toStdString()}});
        in.addGenerationPrompt = true;
        return formatter_->format(std::move(in));
    };
    auto fits = [&](const ChatPrompt& p) { return context <= 0 || int(p.tokens.size()) + reserve <= context; };
    std::vector<qsizetype> starts = {0};
    for (qsizetype i = 1; i < turns.size(); ++i)
        if (turns[i].role == QLatin1String("user")) starts.push_back(i);
    if (turns.size() > 1 && starts.back() != turns.size() - 1) starts.push_back(turns.size() - 1);

    auto prompt = render(0);
    if (!prompt) return prompt.error();
    dropped_ = 0;
    if (!fits(*prompt) && starts.size() > 1) {
        // Invariant: starts[lo] does not fit; starts[hi] is the answer if nothing before it fits.
        size_t lo = 0, hi = starts.size() - 1;
        auto best = render(starts[hi]);
        if (!best) return best.error();
        while (hi - lo > 1) {
            const size_t mid = (lo + hi) / 2;
            auto p = render(starts[mid]);
            if (!p) return p.error();
            if (fits(*p)) {
                hi = mid;
                best = std::move(p);
            } else {
                lo = mid;
            }
        }
        prompt = std::move(best);
        dropped_ = int(starts[hi]);
    }

    GenerationRequest r;
    const int promptTokens = int(prompt->tokens.size());
    r.promptTokens = std::move(prompt->tokens);
    r.stop = std::move(prompt->stopStrings);
    r.stopTokens = std::move(prompt->stopTokens);
    r.sampling = sampling.params;
    // The reply cannot run past the end of the context.
    r.maxTokens = context > promptTokens ? std::min(sampling.maxTokens, context - promptTokens) : sampling.maxTokens;
    r.user = user.toStdString();  // fairness between chats
    return r;
}

}  // namespace hearth::app
