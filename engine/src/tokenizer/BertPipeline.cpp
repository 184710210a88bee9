#include "tokenizer/BertPipeline.h"

#include "tokenizer/RegexDialect.h"
#include "tokenizer/UnicodeForms.h"

namespace hearth {
namespace {

Result<std::shared_ptr<const Regex>> re(const char* pattern) {
    return Regex::compile(RegexDialects::toPcre(pattern, RegexDialect::Python));
}

}  // namespace

Status BertPipeline::configure(TokenizerParts& parts, Options o) {
    if ((o.stripAccents || o.lowercase) && !UnicodeForms::available())
        return makeError(ErrorCode::TokenizerError, "BERT normalization needs ICU (built without it)");
    Normalizer& n = parts.normalizer;
    if (o.cleanText) {
        auto drop = re(R"([\x{0}\x{FFFD}]|(?![\t\n\r])\p{C})");
        auto space = re(R"(\s)");
        if (!drop) return drop.error();
        if (!space) return space.error();
        n.add(Normalizer::step(Normalizer::Kind::ReplaceRegex, "", "", *drop));
        n.add(Normalizer::step(Normalizer::Kind::ReplaceRegex, "", " ", *space));
    }
    if (o.chineseChars) {
        auto cjk = re(R"([\x{4E00}-\x{9FFF}\x{3400}-\x{4DBF}\x{20000}-\x{2A6DF}\x{2A700}-\x{2B73F}\x{2B740}-\x{2B81F}\x{2B820}-\x{2CEAF}\x{F900}-\x{FAFF}\x{2F800}-\x{2FA1F}])");
        if (!cjk) return cjk.error();
        n.add(Normalizer::step(Normalizer::Kind::PadMatches, "", "", *cjk));
    }
    if (o.stripAccents) {
        Normalizer::Step nfd = Normalizer::step(Normalizer::Kind::Form);
        nfd.form = UnicodeForm::NFD;
        n.add(nfd);
        auto marks = re(R"(\p{Mn})");
        if (!marks) return marks.error();
        n.add(Normalizer::step(Normalizer::Kind::ReplaceRegex, "", "", *marks));
    }
    if (o.lowercase) n.add(Normalizer::step(Normalizer::Kind::Lowercase));

    auto ws = re(R"(\s+)");
    auto punct = re(R"([\p{P}!-/:-@\[-`{-~])");
    if (!ws) return ws.error();
    if (!punct) return punct.error();
    parts.preTokenizer.addStage({*ws, SplitBehavior::Removed, false, false});
    parts.preTokenizer.addStage({*punct, SplitBehavior::Isolated, false, false});
    return {};
}

}  // namespace hearth
