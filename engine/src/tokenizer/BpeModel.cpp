#include "tokenizer/BpeModel.h"

#include <queue>

#include "tokenizer/ByteLevelAlphabet.h"
#include "tokenizer/Utf8.h"

namespace hearth {
namespace {

constexpr std::string_view kMarker = "\xE2\x96\x81";  // U+2581

// True when text has a character other than the marker directly followed by the marker.
bool crossesWordStart(std::string_view text) {
    for (size_t pos = text.find(kMarker, 1); pos != std::string_view::npos; pos = text.find(kMarker, pos + 1))
        if (pos < kMarker.size() || text.substr(pos - kMarker.size(), kMarker.size()) != kMarker) return true;
    return false;
}

uint64_t pairKey(TokenId l, TokenId r) { return (static_cast<uint64_t>(static_cast<uint32_t>(l)) << 32) | static_cast<uint32_t>(r); }

struct Candidate {
    double priority;  // lower merges first
    int32_t left, right;
    uint32_t lenSum;  // l.len + r.len when queued: detects symbols changed since
    TokenId merged;
    bool operator>(const Candidate& o) const {
        return priority != o.priority ? priority > o.priority : left > o.left;
    }
};

}  // namespace

BpeModel::BpeModel(std::shared_ptr<const Vocab> vocab, Options opts) : vocab_(std::move(vocab)), opts_(opts) {
    const auto& alphabet = ByteLevelAlphabet::instance();
    for (int b = 0; b < 256; ++b)
        byteIds_[static_cast<size_t>(b)] = opts_.byteLevel ? vocab_->find(alphabet.encodeByte(static_cast<uint8_t>(b))) : -1;
}

bool BpeModel::addMerge(TokenId left, TokenId right, TokenId merged) {
    if (!vocab_->contains(left) || !vocab_->contains(right)) return false;
    const uint64_t rank = mergeList_.size();
    if (merges_.emplace(pairKey(left, right), (rank << 32) | static_cast<uint32_t>(merged)).second)
        mergeList_.push_back({left, right});
    return true;
}

void BpeModel::finalize() {
    splitAtWordStarts_ = false;
    if (opts_.byteLevel) return;
    if (opts_.ranking == Ranking::Merges) {
        for (const auto& m : mergeList_)
            if (crossesWordStart(vocab_->piece(m[0]) + vocab_->piece(m[1]))) return;
    } else {
        for (TokenId id = 0; id < vocab_->size(); ++id)
            if (mergeable(id) && crossesWordStart(vocab_->piece(id))) return;
    }
    splitAtWordStarts_ = true;
}

bool BpeModel::mergeable(TokenId id) const {
    if (id < 0) return false;
    const TokenType t = vocab_->type(id);
    return t == TokenType::Normal || t == TokenType::Undefined;
}

bool BpeModel::lookupPair(std::string_view piece, const Symbol& l, const Symbol& r, double& priority,
                          TokenId& merged) const {
    if (opts_.ranking == Ranking::Merges) {
        if (l.id < 0 || r.id < 0) return false;
        auto it = merges_.find(pairKey(l.id, r.id));
        if (it == merges_.end()) return false;
        priority = static_cast<double>(it->second >> 32);
        merged = static_cast<TokenId>(static_cast<uint32_t>(it->second));
        return true;
    }
    const TokenId id = vocab_->find(piece.substr(l.start, l.len + r.len));
    if (!mergeable(id)) return false;
    priority = -static_cast<double>(vocab_->score(id));
    merged = id;
    return true;
}

void BpeModel::emitUnknown(std::string_view text, std::vector<TokenId>& out) const {
    if (opts_.byteFallback) {
        bool all = true;
        for (char c : text) all &= vocab_->byteToken(static_cast<uint8_t>(c)) >= 0;
        if (all) {
            for (char c : text) out.push_back(vocab_->byteToken(static_cast<uint8_t>(c)));
            return;
        }
    }
    if (opts_.unk < 0) return;  // nothing to stand for it: dropped, as the reference does
    if (opts_.fuseUnk && !out.empty() && out.back() == opts_.unk) return;
    out.push_back(opts_.unk);
}

void BpeModel::encodePiece(std::string_view piece, std::vector<TokenId>& out) const {
    if (piece.empty()) return;
    if (!splitAtWordStarts_ || opts_.ignoreMerges) {
        encodeSegment(piece, out);
        return;
    }
    size_t start = 0;
    for (size_t pos = piece.find(kMarker, 1); pos != std::string_view::npos; pos = piece.find(kMarker, pos + 1)) {
        if (piece.substr(pos - kMarker.size(), kMarker.size()) == kMarker) continue;  // inside a run of markers
        encodeSegment(piece.substr(start, pos - start), out);
        start = pos;
    }
    encodeSegment(piece.substr(start), out);
}

void BpeModel::encodeSegment(std::string_view piece, std::vector<TokenId>& out) const {
    if (piece.empty()) return;
    if (opts_.ignoreMerges) {
        const TokenId whole = opts_.byteLevel ? vocab_->find(ByteLevelAlphabet::instance().encode(piece)) : vocab_->find(piece);
        if (whole >= 0) {
            out.push_back(whole);
            return;
        }
    }

    std::vector<Symbol> sym;
    sym.reserve(piece.size());
    if (opts_.byteLevel) {
        for (size_t i = 0; i < piece.size(); ++i)
            sym.push_back({byteIds_[static_cast<uint8_t>(piece[i])], static_cast<uint32_t>(i), 1, 0, 0});
    } else {
        size_t i = 0;
        while (i < piece.size()) {
            uint32_t cp = 0;
            size_t n = utf8::decode(piece, i, cp);
            if (n == 0) n = 1;  // cannot happen on repaired text; keeps the loop finite regardless
            TokenId id = vocab_->find(piece.substr(i, n));
            if (id >= 0 && !mergeable(id) && vocab_->type(id) != TokenType::UserDefined) id = -1;
            sym.push_back({id, static_cast<uint32_t>(i), static_cast<uint32_t>(n), 0, 0});
            i += n;
        }
    }
    const auto count = static_cast<int32_t>(sym.size());
    for (int32_t i = 0; i < count; ++i) {
        sym[static_cast<size_t>(i)].prev = i - 1;
        sym[static_cast<size_t>(i)].next = i + 1 < count ? i + 1 : -1;
    }

    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap;
    auto consider = [&](int32_t l) {
        if (l < 0) return;
        const Symbol& a = sym[static_cast<size_t>(l)];
        if (a.next < 0) return;
        const Symbol& b = sym[static_cast<size_t>(a.next)];
        double pr = 0;
        TokenId merged = -1;
        if (lookupPair(piece, a, b, pr, merged)) heap.push({pr, l, a.next, a.len + b.len, merged});
    };
    for (int32_t i = 0; i + 1 < count; ++i) consider(i);

    while (!heap.empty()) {
        const Candidate c = heap.top();
        heap.pop();
        Symbol& l = sym[static_cast<size_t>(c.left)];
        if (l.len == 0 || l.next != c.right) continue;
        Symbol& r = sym[static_cast<size_t>(c.right)];
        if (l.len + r.len != c.lenSum) continue;  // one side changed after this pair was queued
        l.len += r.len;
        l.id = c.merged;
        l.next = r.next;
        if (r.next >= 0) sym[static_cast<size_t>(r.next)].prev = c.left;
        r.len = 0;
        consider(l.prev);
        consider(c.left);
    }

    for (int32_t i = 0; i >= 0 && i < count; i = sym[static_cast<size_t>(i)].next) {
        const Symbol& s = sym[static_cast<size_t>(i)];
        const std::string_view text = piece.substr(s.start, s.len);
        TokenId id = s.id;
        // A merge may name a result missing from the vocab (tokenizer.json allows it).
        if (id < 0 || !vocab_->contains(id)) id = opts_.byteLevel ? vocab_->find(ByteLevelAlphabet::instance().encode(text)) : -1;
        if (id >= 0) out.push_back(id);
        else emitUnknown(text, out);
    }
}

uint64_t BpeModel::fingerprint(uint64_t h) const {
    auto mix = [&h](uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xFF;
            h *= 0x100000001b3ULL;
        }
    };
    mix(static_cast<uint64_t>(opts_.ranking) | (opts_.byteLevel << 4) | (opts_.byteFallback << 5) | (opts_.ignoreMerges << 6));
    for (const auto& m : mergeList_) mix(pairKey(m[0], m[1]));
    return h;
}

}  // namespace hearth
