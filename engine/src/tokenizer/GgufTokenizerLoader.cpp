// Tokenizer::fromGguf / GgufTokenizerLoader::load: builds the tokenizer pipeline from a GGUF file's tokenizer.* metadata.
//   llama - SentencePiece BPE: pieces ranked by score, spaces escaped as U+2581 with a leading
//           one per text section, byte fallback through <0xXX> tokens.
//   gpt2  - byte-level BPE ranked by tokenizer.ggml.merges, pre-tokenizer per tokenizer.ggml.pre.
//   bert  - WordPiece with BERT's normalization (lowercase, accents stripped).
#include <algorithm>

#include "tokenizer/GgufTokenizerLoader.h"
#include "tokenizer/BertPipeline.h"
#include "tokenizer/BpeModel.h"
#include "tokenizer/PreTokenizerPresets.h"
#include "tokenizer/TokenizerImpl.h"
#include "tokenizer/WordPieceModel.h"

namespace hearth {
namespace {

constexpr const char* kSpaceMarker = "\xE2\x96\x81";  // U+2581

Error bad(const std::string& path, const std::string& what) {
    return makeError(ErrorCode::TokenizerError, path + ": " + what);
}

// A string array, or an error naming the key.
Result<const std::vector<GgufValue>*> arrayOf(const GgufFile& f, const std::string& key, GgufType elem, bool required) {
    const GgufValue* v = f.find(key);
    if (!v) {
        if (required) return makeError(ErrorCode::MissingKey, f.path() + ": missing " + key);
        return static_cast<const std::vector<GgufValue>*>(nullptr);
    }
    const auto* a = v->asArray();
    const bool numericOk = elem != GgufType::String && (v->arrayType() == GgufType::F32 || v->arrayType() == GgufType::F64 ||
                                                        v->arrayType() == GgufType::I32 || v->arrayType() == GgufType::U32 ||
                                                        v->arrayType() == GgufType::I8 || v->arrayType() == GgufType::U8 ||
                                                        v->arrayType() == GgufType::I16 || v->arrayType() == GgufType::U16 ||
                                                        v->arrayType() == GgufType::I64 || v->arrayType() == GgufType::U64);
    if (!a || (v->arrayType() != elem && !numericOk))
        return makeError(ErrorCode::BadKeyType, f.path() + ": " + key + " is not an array of " + ggufTypeName(elem));
    return a;
}

TokenId optionalId(const GgufFile& f, const std::string& key, int32_t n) {
    const GgufValue* v = f.find(key);
    if (!v) return -1;
    auto i = v->asI64();
    if (!i || *i < 0 || *i >= n) return -1;  // absent, or the 0xFFFFFFFF "none" some files write
    return static_cast<TokenId>(*i);
}

}  // namespace

Result<std::shared_ptr<const Tokenizer>> Tokenizer::fromGguf(const std::string& path) {
    auto file = GgufFile::open(path);
    if (!file) return file.error();
    return GgufTokenizerLoader::load(**file);
}

Result<std::shared_ptr<const Tokenizer>> GgufTokenizerLoader::load(const GgufFile& f) {
    const std::string& path = f.path();

    const GgufValue* modelKey = f.find("tokenizer.ggml.model");
    if (!modelKey) return makeError(ErrorCode::MissingKey, path + ": missing tokenizer.ggml.model (no tokenizer in this file)");
    if (!modelKey->asString()) return makeError(ErrorCode::BadKeyType, path + ": tokenizer.ggml.model is not a string");
    const std::string model = *modelKey->asString();

    auto tokensR = arrayOf(f, "tokenizer.ggml.tokens", GgufType::String, true);
    if (!tokensR) return tokensR.error();
    const auto& tokens = **tokensR;
    if (tokens.empty()) return bad(path, "tokenizer.ggml.tokens is empty");
    if (tokens.size() > static_cast<size_t>(INT32_MAX)) return bad(path, "tokenizer.ggml.tokens is too long");
    const auto n = static_cast<int32_t>(tokens.size());

    auto scoresR = arrayOf(f, "tokenizer.ggml.scores", GgufType::F32, false);
    if (!scoresR) return scoresR.error();
    auto typesR = arrayOf(f, "tokenizer.ggml.token_type", GgufType::I32, false);
    if (!typesR) return typesR.error();
    const auto* scores = *scoresR;
    const auto* types = *typesR;
    if (scores && scores->size() != tokens.size())
        return bad(path, "tokenizer.ggml.scores has " + std::to_string(scores->size()) + " entries for " +
                             std::to_string(n) + " tokens");
    if (types && types->size() != tokens.size())
        return bad(path, "tokenizer.ggml.token_type has " + std::to_string(types->size()) + " entries for " +
                             std::to_string(n) + " tokens");

    TokenizerParts parts;
    parts.kind = model;
    parts.vocab = std::make_shared<Vocab>();
    Vocab& vocab = *parts.vocab;
    vocab.resize(n);
    for (int32_t i = 0; i < n; ++i) {
        const std::string* s = tokens[static_cast<size_t>(i)].asString();
        if (!s) return bad(path, "tokenizer.ggml.tokens[" + std::to_string(i) + "] is not a string");
        TokenType type = TokenType::Normal;
        if (types) {
            const auto t = (*types)[static_cast<size_t>(i)].asI64().value_or(1);
            type = t >= 0 && t <= 6 ? static_cast<TokenType>(t) : TokenType::Normal;
        }
        const float score = scores ? static_cast<float>((*scores)[static_cast<size_t>(i)].asF64().value_or(0.0)) : 0.0f;
        vocab.set(i, *s, type, score);
    }
    vocab.finalize();

    parts.bos = optionalId(f, "tokenizer.ggml.bos_token_id", n);
    parts.eos = optionalId(f, "tokenizer.ggml.eos_token_id", n);
    const TokenId unk = optionalId(f, "tokenizer.ggml.unknown_token_id", n);
    for (const char* key : {"tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"})
        if (TokenId id = optionalId(f, key, n); id >= 0) parts.endOfGeneration.push_back(id);

    bool addBosDefault = false;
    if (model == "llama") {
        parts.decoding = PieceDecoding::SentencePiece;
        if (f.getBoolOr("tokenizer.ggml.add_space_prefix", true))
            parts.normalizer.add(Normalizer::step(Normalizer::Kind::Prepend, kSpaceMarker));
        parts.normalizer.add(Normalizer::step(Normalizer::Kind::ReplaceString, " ", kSpaceMarker));
        BpeModel::Options o;
        o.ranking = BpeModel::Ranking::PieceScores;
        o.byteFallback = true;
        o.unk = unk >= 0 ? unk : vocab.find("<unk>");
        auto spm = std::make_shared<BpeModel>(parts.vocab, o);
        spm->finalize();
        parts.model = std::move(spm);
        addBosDefault = true;
    } else if (model == "gpt2") {
        const std::string pre = f.getStringOr("tokenizer.ggml.pre", "default");
        auto preset = PreTokenizerPresets::forGguf(pre);
        if (!preset) return bad(path, preset.error().message);
        parts.preTokenizer = std::move(preset->preTokenizer);
        addBosDefault = preset->addBos;
        parts.decoding = PieceDecoding::ByteLevel;
        BpeModel::Options o;
        o.ranking = BpeModel::Ranking::Merges;
        o.byteLevel = true;
        o.ignoreMerges = preset->ignoreMerges;
        o.unk = unk;
        auto bpe = std::make_shared<BpeModel>(parts.vocab, o);
        auto mergesR = arrayOf(f, "tokenizer.ggml.merges", GgufType::String, true);
        if (!mergesR) return mergesR.error();
        for (size_t i = 0; i < (*mergesR)->size(); ++i) {
            const std::string* m = (**mergesR)[i].asString();
            const size_t sp = m ? m->find(' ', 1) : std::string::npos;
            if (sp == std::string::npos) return bad(path, "tokenizer.ggml.merges[" + std::to_string(i) + "] is not 'left right'");
            const std::string_view mv(*m);
            const TokenId l = vocab.find(mv.substr(0, sp)), r = vocab.find(mv.substr(sp + 1));
            if (l < 0 || r < 0) continue;  // a merge of pieces the vocab lacks can never apply
            bpe->addMerge(l, r, vocab.find(std::string(mv.substr(0, sp)) + std::string(mv.substr(sp + 1))));
        }
        bpe->finalize();
        parts.model = std::move(bpe);
    } else if (model == "bert") {
        // GGUF WordPiece vocabs mark word starts with U+2581 and store continuations bare.
        if (unk < 0) return bad(path, "WordPiece vocab without tokenizer.ggml.unknown_token_id");
        if (auto s = BertPipeline::configure(parts, {}); !s.ok()) return bad(path, s.error().message);
        parts.decoding = PieceDecoding::WordPiece;
        parts.wordStartPrefix = kSpaceMarker;
        parts.model = std::make_shared<WordPieceModel>(parts.vocab, WordPieceModel::Options{kSpaceMarker, "", unk, 100});
    } else {
        return bad(path, "unsupported tokenizer.ggml.model '" + model + "' (supported: llama, gpt2, bert)");
    }
    parts.addBos = f.getBoolOr("tokenizer.ggml.add_bos_token", addBosDefault);
    parts.addEos = f.getBoolOr("tokenizer.ggml.add_eos_token", false);

    // Control and user-defined tokens are matched in raw text; control ones only on request.
    for (TokenId id = 0; id < n; ++id) {
        const TokenType t = vocab.type(id);
        if (t == TokenType::Control || t == TokenType::UserDefined)
            parts.added.add({vocab.piece(id), id, t == TokenType::Control, false, false});
    }
    return TokenizerImpl::create(std::move(parts));
}

}  // namespace hearth
