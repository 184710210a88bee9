#include "hearth/chat_formatter.h"

namespace hearth {

Result<ChatFormatter> ChatFormatter::create(const std::string& source, std::shared_ptr<const Tokenizer> tok) {
    if (!tok) return makeError(ErrorCode::InvalidArgument, "chat formatting needs a tokenizer");
    if (source.empty()) return ChatFormatter(ChatTemplate::fallback(), std::move(tok), true);
    auto t = ChatTemplate::parse(source);
    if (!t) return t.error();
    return ChatFormatter(std::move(*t), std::move(tok), false);
}

Result<ChatPrompt> ChatFormatter::format(ChatTemplateInputs in, const ChatTemplateRenderOptions& options) const {
    if (in.bosToken.empty()) in.bosToken = tok_->bosText();
    if (in.eosToken.empty()) in.eosToken = tok_->eosText();
    auto rendered = template_.render(in.toContext(), options);
    if (!rendered) return rendered.error();
    ChatPrompt p;
    p.text = std::move(*rendered);
    // Templates usually write bos_token themselves; parsed as special text it becomes the BOS
    // token, which must then not be added a second time.
    const std::string bos = tok_->bosText();
    const bool hasBos = !bos.empty() && p.text.compare(0, bos.size(), bos) == 0;
    p.tokens = tok_->encode(p.text, TokenizeOptions{!hasBos, true});
    p.stopTokens = tok_->endOfGeneration();
    if (fallback_) p.stopStrings = {"\nUser:", "\nSystem:"};
    if (p.tokens.empty()) return makeError(ErrorCode::InvalidArgument, "the rendered chat prompt is empty");
    return p;
}

}  // namespace hearth
