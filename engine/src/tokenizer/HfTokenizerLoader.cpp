// Tokenizer::fromHuggingFace: tokenizer.json (+ tokenizer_config.json) into the same pipeline
// GGUF tokenizers use. Semantics follow transformers.js where Hugging Face's implementations
// differ (regex classes, Split behaviours), because that is the reference the tests hold us to.
// Supported: model BPE (merges as "a b" strings or pairs, byte_fallback, ignore_merges, unk,
// fuse_unk); normalizers Sequence, Prepend, Replace, NFC/NFD/NFKC/NFKD, Lowercase (ASCII),
// Strip; pre-tokenizers Sequence, Split, ByteLevel, Digits, Punctuation, Metaspace, Whitespace,
// WhitespaceSplit; post-processor TemplateProcessing for BOS/EOS. Anything else is refused with
// an error naming it.
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tokenizer/BpeModel.h"
#include "tokenizer/PreTokenizerPresets.h"
#include "tokenizer/RegexDialect.h"
#include "tokenizer/TokenizerImpl.h"
#include "tokenizer/UnicodeForms.h"

namespace hearth {
namespace {

using nlohmann::json;

Error unsupported(const std::string& what) { return makeError(ErrorCode::TokenizerError, "tokenizer.json: unsupported " + what); }

Result<json> readJson(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::IoError, "cannot open '" + path + "'");
    std::stringstream ss;
    ss << in.rdbuf();
    json j = json::parse(ss.str(), nullptr, false);
    if (j.is_discarded()) return makeError(ErrorCode::TokenizerError, "'" + path + "' is not valid JSON");
    return j;
}

std::string str(const json& j, const char* key, std::string fallback = {}) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}
bool flag(const json& j, const char* key, bool fallback) {
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// A token named in tokenizer_config.json: a string or {"content": ...}.
std::string configToken(const json& cfg, const char* key) {
    auto it = cfg.find(key);
    if (it == cfg.end()) return {};
    if (it->is_string()) return it->get<std::string>();
    if (it->is_object()) return str(*it, "content");
    return {};
}

std::string escapeLiteral(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (std::string_view("\\^$.|?*+()[]{}-/").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

// The pattern of a Split/Replace: {"Regex": ...} or {"String": ...}, as a PCRE2 pattern.
Result<std::string> patternOf(const json& p) {
    if (p.contains("Regex") && p["Regex"].is_string())
        return RegexDialects::toPcre(p["Regex"].get<std::string>(), RegexDialect::JavaScript);
    if (p.contains("String") && p["String"].is_string()) return escapeLiteral(p["String"].get<std::string>());
    return unsupported("pattern " + p.dump());
}

Result<SplitBehavior> behaviorOf(const std::string& b) {
    if (b == "Isolated") return SplitBehavior::Isolated;
    if (b == "Removed") return SplitBehavior::Removed;
    if (b == "MergedWithPrevious") return SplitBehavior::MergedWithPrevious;
    if (b == "MergedWithNext") return SplitBehavior::MergedWithNext;
    if (b == "Contiguous") return SplitBehavior::Contiguous;
    return unsupported("split behavior '" + b + "'");
}

Status addStage(PreTokenizer& pre, const std::string& pattern, SplitBehavior b, bool invert, bool onByteLevel) {
    auto re = Regex::compile(pattern);
    if (!re) return re.error();
    pre.addStage({*re, b, invert, onByteLevel});
    return {};
}

struct Builder {
    TokenizerParts& parts;
    bool byteLevelSeen = false;

    Status normalizer(const json& n) {
        if (n.is_null()) return {};
        const std::string type = str(n, "type");
        if (type == "Sequence") {
            for (const auto& x : n.value("normalizers", json::array())) HEARTH_TRY(normalizer(x));
            return {};
        }
        if (type == "Prepend") {
            parts.normalizer.add(Normalizer::step(Normalizer::Kind::Prepend, str(n, "prepend")));
            return {};
        }
        if (type == "Replace") {
            const json& p = n.value("pattern", json::object());
            if (p.contains("String")) {
                parts.normalizer.add(Normalizer::step(Normalizer::Kind::ReplaceString, p["String"].get<std::string>(), str(n, "content")));
                return {};
            }
            auto pat = patternOf(p);
            if (!pat) return pat.error();
            auto re = Regex::compile(*pat);
            if (!re) return re.error();
            parts.normalizer.add(Normalizer::step(Normalizer::Kind::ReplaceRegex, *pat, str(n, "content"), *re));
            return {};
        }
        if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
            if (!UnicodeForms::available()) return unsupported("normalizer " + type + " (built without ICU)");
            Normalizer::Step s = Normalizer::step(Normalizer::Kind::Form);
            s.form = type == "NFC" ? UnicodeForm::NFC : type == "NFD" ? UnicodeForm::NFD : type == "NFKC" ? UnicodeForm::NFKC : UnicodeForm::NFKD;
            parts.normalizer.add(s);
            return {};
        }
        if (type == "Lowercase") {
            parts.normalizer.add(Normalizer::step(Normalizer::Kind::Lowercase));
            return {};
        }
        if (type == "Strip") {
            Normalizer::Step s = Normalizer::step(Normalizer::Kind::Strip);
            s.left = flag(n, "strip_left", true);
            s.right = flag(n, "strip_right", true);
            parts.normalizer.add(s);
            return {};
        }
        return unsupported("normalizer '" + type + "'");
    }

    Status preTokenizer(const json& p, bool first) {
        if (p.is_null()) return {};
        const std::string type = str(p, "type");
        PreTokenizer& pre = parts.preTokenizer;
        if (type == "Sequence") {
            bool f = first;
            for (const auto& x : p.value("pretokenizers", json::array())) {
                HEARTH_TRY(preTokenizer(x, f));
                f = false;
            }
            return {};
        }
        if (type == "Split") {
            auto pat = patternOf(p.value("pattern", json::object()));
            if (!pat) return pat.error();
            auto b = behaviorOf(str(p, "behavior", "Isolated"));
            if (!b) return b.error();
            return addStage(pre, *pat, *b, flag(p, "invert", false), byteLevelSeen);
        }
        if (type == "ByteLevel") {
            if (flag(p, "add_prefix_space", false)) {
                if (!first) return unsupported("ByteLevel add_prefix_space after other pre-tokenizers");
                Normalizer::Step s = Normalizer::step(Normalizer::Kind::Prepend, " ");
                s.unlessPresent = true;
                parts.normalizer.add(s);
            }
            if (flag(p, "use_regex", true)) {
                HEARTH_TRY(addStage(pre, RegexDialects::toPcre(PreTokenizerPresets::byteLevelRegex(), RegexDialect::JavaScript),
                                    SplitBehavior::Isolated, false, byteLevelSeen));
            }
            byteLevelSeen = true;
            return {};
        }
        if (type == "Digits") {
            return addStage(pre, flag(p, "individual_digits", false) ? "[0-9]" : "[0-9]+", SplitBehavior::Isolated, false,
                            byteLevelSeen);
        }
        if (type == "Punctuation") {
            auto b = behaviorOf(str(p, "behavior", "Isolated"));
            if (!b) return b.error();
            return addStage(pre, R"([\p{P}\x{21}-\x{2F}\x{3A}-\x{40}\x{5B}-\x{60}\x{7B}-\x{7E}]+)", *b, false, byteLevelSeen);
        }
        if (type == "Whitespace") return addStage(pre, R"([A-Za-z0-9_]+|[^A-Za-z0-9_\t-\r\p{Zs}\x{2028}\x{2029}\x{FEFF}]+)", SplitBehavior::Isolated, true, byteLevelSeen);
        if (type == "WhitespaceSplit") return addStage(pre, R"([^\t-\r\p{Zs}\x{2028}\x{2029}\x{FEFF}]+)", SplitBehavior::Isolated, true, byteLevelSeen);
        if (type == "Metaspace") {
            if (!first) return unsupported("Metaspace after other pre-tokenizers");
            const std::string rep = str(p, "replacement", "\xE2\x96\x81");
            parts.normalizer.add(Normalizer::step(Normalizer::Kind::ReplaceString, " ", rep));
            const std::string scheme = str(p, "prepend_scheme", "always");
            if (flag(p, "add_prefix_space", scheme != "never") && scheme != "never") {
                Normalizer::Step s = Normalizer::step(Normalizer::Kind::Prepend, rep);
                s.unlessPresent = true;
                s.firstSectionOnly = scheme == "first";
                parts.normalizer.add(s);
            }
            return {};
        }
        return unsupported("pre-tokenizer '" + type + "'");
    }
};

}  // namespace

Result<std::shared_ptr<const Tokenizer>> Tokenizer::fromHuggingFace(const std::string& tokenizerJsonPath,
                                                                     const std::string& tokenizerConfigJsonPath) {
    auto tjR = readJson(tokenizerJsonPath);
    if (!tjR) return tjR.error();
    const json& tj = *tjR;
    json cfg = json::object();
    if (!tokenizerConfigJsonPath.empty()) {
        auto c = readJson(tokenizerConfigJsonPath);
        if (!c) return c.error();
        cfg = std::move(*c);
    }
    if (!tj.is_object() || !tj.contains("model") || !tj["model"].is_object())
        return makeError(ErrorCode::TokenizerError, tokenizerJsonPath + ": no \"model\" object");
    const json& model = tj["model"];
    const std::string modelType = str(model, "type", model.contains("merges") ? "BPE" : "");
    if (modelType != "BPE") return unsupported("model type '" + modelType + "' (only BPE is supported)");
    if (!model.contains("vocab") || !model["vocab"].is_object())
        return makeError(ErrorCode::TokenizerError, tokenizerJsonPath + ": model has no vocab object");

    TokenizerParts parts;
    parts.kind = "hf-bpe";
    parts.vocab = std::make_shared<Vocab>();
    Vocab& vocab = *parts.vocab;

    // Size: the largest id in the vocab or the added tokens.
    int64_t maxId = -1;
    for (const auto& [piece, id] : model["vocab"].items()) {
        if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= INT32_MAX)
            return makeError(ErrorCode::TokenizerError, tokenizerJsonPath + ": bad id for vocab entry '" + piece + "'");
        maxId = std::max(maxId, id.get<int64_t>());
    }
    const json addedTokens = tj.value("added_tokens", json::array());
    for (const auto& a : addedTokens) {
        if (!a.is_object() || !a.contains("id") || !a["id"].is_number_integer() || a["id"].get<int64_t>() < 0 ||
            a["id"].get<int64_t>() >= INT32_MAX || !a.contains("content") || !a["content"].is_string())
            return makeError(ErrorCode::TokenizerError, tokenizerJsonPath + ": malformed added token " + a.dump());
        maxId = std::max(maxId, a["id"].get<int64_t>());
    }
    if (maxId < 0) return makeError(ErrorCode::TokenizerError, tokenizerJsonPath + ": empty vocab");
    if (maxId > 16 * 1024 * 1024) return makeError(ErrorCode::TokenizerError, tokenizerJsonPath + ": vocab ids up to " + std::to_string(maxId) + " are implausible");
    vocab.resize(static_cast<int32_t>(maxId + 1));

    const bool byteFallback = flag(model, "byte_fallback", false);
    for (const auto& [piece, id] : model["vocab"].items()) {
        const bool isByte = byteFallback && piece.size() == 6 && piece.starts_with("<0x") && piece.back() == '>';
        vocab.set(id.get<TokenId>(), piece, isByte ? TokenType::Byte : TokenType::Normal);
    }
    const std::string unkText = str(model, "unk_token");
    for (const auto& a : addedTokens) {
        const TokenId id = a["id"].get<TokenId>();
        const bool special = flag(a, "special", false);
        vocab.set(id, a["content"].get<std::string>(), special ? TokenType::Control : TokenType::UserDefined);
    }
    vocab.finalize();
    if (!unkText.empty() && vocab.find(unkText) >= 0 && vocab.type(vocab.find(unkText)) == TokenType::Normal)
        vocab.set(vocab.find(unkText), unkText, TokenType::Unknown);

    Builder b{parts};
    HEARTH_TRY(b.normalizer(tj.value("normalizer", json())));
    HEARTH_TRY(b.preTokenizer(tj.value("pre_tokenizer", json()), true));
    const json decoder = tj.value("decoder", json());
    const bool byteLevel = b.byteLevelSeen || str(decoder, "type") == "ByteLevel";

    BpeModel::Options o;
    o.ranking = BpeModel::Ranking::Merges;
    o.byteLevel = byteLevel;
    o.byteFallback = byteFallback;
    o.ignoreMerges = flag(model, "ignore_merges", false);
    o.unk = unkText.empty() ? -1 : vocab.find(unkText);
    o.fuseUnk = flag(model, "fuse_unk", false);
    if (!str(model, "continuing_subword_prefix").empty() || !str(model, "end_of_word_suffix").empty())
        return unsupported("BPE continuing_subword_prefix / end_of_word_suffix");
    auto bpe = std::make_shared<BpeModel>(parts.vocab, o);
    for (const auto& m : model.value("merges", json::array())) {
        std::string l, r;
        if (m.is_string()) {
            const std::string s = m.get<std::string>();
            const size_t sp = s.find(' ');
            if (sp == std::string::npos) return makeError(ErrorCode::TokenizerError, tokenizerJsonPath + ": merge '" + s + "' has no space");
            l = s.substr(0, sp);
            r = s.substr(sp + 1, s.find(' ', sp + 1) - sp - 1);
        } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
            l = m[0].get<std::string>();
            r = m[1].get<std::string>();
        } else {
            return makeError(ErrorCode::TokenizerError, tokenizerJsonPath + ": malformed merge " + m.dump());
        }
        const TokenId li = vocab.find(l), ri = vocab.find(r);
        if (li < 0 || ri < 0) continue;
        bpe->addMerge(li, ri, vocab.find(l + r));
    }
    bpe->finalize();
    parts.model = std::move(bpe);
    parts.decoding = byteLevel ? PieceDecoding::ByteLevel : PieceDecoding::SentencePiece;

    // Added tokens are split out of raw text first; special ones only when asked to parse them.
    for (const auto& a : addedTokens)
        parts.added.add({a["content"].get<std::string>(), a["id"].get<TokenId>(), flag(a, "special", false),
                         flag(a, "lstrip", false), flag(a, "rstrip", false)});

    // BOS/EOS: the names from tokenizer_config.json; whether they are added, from the
    // post-processor's template when there is one, else from add_bos_token/add_eos_token.
    parts.bos = vocab.find(configToken(cfg, "bos_token"));
    parts.eos = vocab.find(configToken(cfg, "eos_token"));
    parts.addBos = flag(cfg, "add_bos_token", false);
    parts.addEos = flag(cfg, "add_eos_token", false);
    const json post = tj.value("post_processor", json());
    if (str(post, "type") == "TemplateProcessing" && post.contains("single") && post["single"].is_array()) {
        const json& single = post["single"];
        parts.addBos = parts.addEos = false;
        bool seenSequence = false;
        for (const auto& item : single) {
            if (item.contains("Sequence")) {
                seenSequence = true;
            } else if (item.contains("SpecialToken")) {
                const TokenId id = vocab.find(str(item["SpecialToken"], "id"));
                if (id < 0) continue;
                if (!seenSequence) parts.bos = id, parts.addBos = true;
                else parts.eos = parts.eos < 0 ? id : parts.eos, parts.addEos = true;
            }
        }
    }
    return TokenizerImpl::create(std::move(parts));
}

}  // namespace hearth
