#include "scheduler/Scheduler.h"

#include <algorithm>
#include <unordered_set>

#include "kv/BlockHasher.h"

namespace hearth {

Scheduler::Scheduler(const SchedulerConfig& config, KvCacheManager& kv)
    : config_(config),
      kv_(kv),
      maxContext_(std::min<int64_t>(config.contextLength, static_cast<int64_t>(kv.numBlocks()) * kBlockSize)) {
    config_.maxSeqs = std::max(1, config_.maxSeqs);
    config_.maxBatchTokens = std::max(1, config_.maxBatchTokens);
    config_.prefillChunk = std::max(1, config_.prefillChunk);
}

Status Scheduler::add(std::unique_ptr<Request> r) {
    if (r->tokens.empty()) return makeError(ErrorCode::InvalidArgument, "the prompt is empty");
    if (r->numTokens() > maxContext_) {
        const int64_t kvTokens = static_cast<int64_t>(kv_.numBlocks()) * kBlockSize;
        return makeError(ErrorCode::ContextOverflow,
                         "the prompt has " + std::to_string(r->numTokens()) + " tokens, more than fit: the context is " +
                             std::to_string(config_.contextLength) + " tokens and the KV memory holds " +
                             std::to_string(kvTokens));
    }
    if (requests_.count(r->id)) return makeError(ErrorCode::InvalidArgument, "duplicate request id");
    r->numPromptTokens = r->numTokens();
    r->numComputedTokens = 0;
    r->status = RequestStatus::Waiting;
    r->arrival = ++admitClock_;
    r->blockHashes.clear();
    BlockHasher::extend(r->blockHashes, r->tokens, r->extraKey);
    waiting_.push_back(r.get());
    requests_.emplace(r->id, std::move(r));
    return Status::success();
}

void Scheduler::removeFromQueues(Request& r) {
    auto drop = [&](std::vector<Request*>& v) { v.erase(std::remove(v.begin(), v.end(), &r), v.end()); };
    drop(running_);
    drop(waiting_);
}

bool Scheduler::finish(RequestId id, FinishReason reason, int32_t dropTrailing) {
    auto trim = [&](Request& r) {
        const int32_t drop = std::clamp(dropTrailing, 0, r.numOutputTokens());
        r.tokens.resize(r.tokens.size() - drop);
        r.numComputedTokens = std::min(r.numComputedTokens, r.numTokens());
        r.draft.clear();
    };
    auto it = requests_.find(id);
    if (it == requests_.end()) {
        // Finished by this step's update() (a stop token or the length limit at the last of several
        // tokens) and not handed out yet: an earlier stop string takes precedence.
        for (auto& f : finished_) {
            if (f->id != id) continue;
            trim(*f);
            f->finishReason = reason;
            return true;
        }
        return false;
    }
    Request& r = *it->second;
    trim(r);
    removeFromQueues(r);
    kv_.freeSequence(id);
    if (r.swapSlot >= 0) kv_.releaseSwapSlot(r.swapSlot);
    r.swapSlot = -1;
    r.status = RequestStatus::Finished;
    r.finishReason = reason;
    finished_.push_back(std::move(it->second));
    requests_.erase(it);
    return true;
}

std::vector<Request*> Scheduler::decodingRequests() const {
    std::vector<Request*> out;
    for (Request* r : running_)
        if (r->pendingTokens() == 1) out.push_back(r);
    return out;
}

const Request* Scheduler::request(RequestId id) const {
    auto it = requests_.find(id);
    return it == requests_.end() ? nullptr : it->second.get();
}

std::vector<std::unique_ptr<Request>> Scheduler::takeFinished() { return std::move(finished_); }

uint64_t Scheduler::lastServed(const std::string& user) const {
    auto it = lastServed_.find(user);
    return it == lastServed_.end() ? 0 : it->second;
}

int32_t Scheduler::runningOf(const std::string& user) const {
    int32_t n = 0;
    for (const Request* r : running_) n += r->user == user;
    return n;
}

void Scheduler::addToOutput(Request& r, int32_t numTokens, SchedulerOutput& out, Budget& budget) {
    ScheduledSeq s;
    s.id = r.id;
    s.startPos = r.numComputedTokens;
    s.numTokens = numTokens;
    s.sample = r.numComputedTokens + numTokens == r.numTokens();
    s.promptTokens = std::max(0, std::min(r.numPromptTokens, s.startPos + numTokens) - s.startPos);
    out.seqs.push_back(s);
    out.numTokens += numTokens;
    budget.tokens -= numTokens;
}

Request* Scheduler::chooseVictim(const Request* exclude) const {
    std::map<std::string, int32_t> counts;
    for (const Request* r : running_) ++counts[r->user];
    Request* best = nullptr;
    for (Request* r : running_) {
        if (r == exclude) continue;
        if (!best) {
            best = r;
            continue;
        }
        // Lowest priority first, then the user holding the most sequences, then the newest.
        if (r->priority != best->priority) {
            if (r->priority < best->priority) best = r;
        } else if (counts[r->user] != counts[best->user]) {
            if (counts[r->user] > counts[best->user]) best = r;
        } else if (r->admittedAt > best->admittedAt) {
            best = r;
        }
    }
    return best;
}

Request* Scheduler::chooseFairnessVictim(const Request& w) const {
    std::map<std::string, int32_t> counts;
    for (const Request* r : running_) ++counts[r->user];
    const int32_t mine = counts[w.user];
    Request* best = nullptr;
    for (Request* r : running_) {
        const bool eligible = r->priority < w.priority || (r->priority == w.priority && counts[r->user] >= mine + 2);
        if (!eligible) continue;
        if (!best || r->priority < best->priority ||
            (r->priority == best->priority &&
             (counts[r->user] > counts[best->user] ||
              (counts[r->user] == counts[best->user] && r->admittedAt > best->admittedAt))))
            best = r;
    }
    return best;
}

void Scheduler::preempt(Request& v, SchedulerOutput& out, Budget& budget) {
    for (auto it = out.seqs.begin(); it != out.seqs.end(); ++it) {
        if (it->id != v.id) continue;
        budget.tokens += it->numTokens;
        out.numTokens -= it->numTokens;
        out.seqs.erase(it);
        break;
    }
    // Full blocks stay cached (device LRU, then RAM and disk as they are evicted); only the
    // partial tail block needs an explicit copy to survive.
    if (v.numComputedTokens % kBlockSize != 0) {
        if (auto slot = kv_.swapOutTail(v.id, v.numComputedTokens)) {
            v.swapSlot = *slot;
            v.swapTokens = v.numComputedTokens;
        }
    }
    kv_.freeSequence(v.id);
    v.numComputedTokens = 0;
    v.draft.clear();
    v.status = RequestStatus::Preempted;
    running_.erase(std::remove(running_.begin(), running_.end(), &v), running_.end());
    auto pos = std::find_if(waiting_.begin(), waiting_.end(), [&](const Request* w) { return w->arrival > v.arrival; });
    waiting_.insert(pos, &v);
    out.preempted.push_back(v.id);
    ++stats_.preemptions;
    ++v.numPreemptions;
}

bool Scheduler::scheduleRunning(Request& r, int32_t numTokens, SchedulerOutput& out, Budget& budget) {
    for (;;) {
        if (kv_.allocateSlots(r.id, r.numComputedTokens, numTokens)) {
            addToOutput(r, numTokens, out, budget);
            return true;
        }
        Request* v = chooseVictim(nullptr);
        if (!v) return false;
        preempt(*v, out, budget);
        budget.preempted = true;
        if (v == &r) return false;
    }
}

Scheduler::Admit Scheduler::admit(Request& r, SchedulerOutput& out, Budget& budget) {
    PrefixLookup hit;
    int32_t computed = 0, n = 0;
    for (;;) {
        const int32_t maxBlocks = (r.numTokens() - 1) / kBlockSize;  // the last token is always recomputed
        hit = kv_.lookup(r.blockHashes, maxBlocks, r.swapSlot, r.swapTokens / kBlockSize, r.swapTokens % kBlockSize);
        computed = hit.numTokens();
        n = std::min({r.numTokens() - computed, config_.prefillChunk, budget.tokens});
        const bool slotFree = static_cast<int32_t>(running_.size()) < config_.maxSeqs;
        if (slotFree && kv_.canAllocate(r.id, computed, n, &hit)) break;
        Request* v = chooseFairnessVictim(r);
        if (!v) return Admit::NoRoom;
        preempt(*v, out, budget);  // then look up again: the preemption may have moved RAM entries
    }
    const int32_t c = *kv_.allocateSlots(r.id, computed, n, &hit);  // checked above
    if (hit.tailSlot < 0 && r.swapSlot >= 0) kv_.releaseSwapSlot(r.swapSlot);  // the tail is useless now
    r.swapSlot = -1;
    r.swapTokens = 0;

    stats_.prefixQueryTokens += r.numTokens();
    for (size_t i = 0; i < hit.blocks.size() && static_cast<int32_t>(i + 1) * kBlockSize <= c; ++i) {
        switch (hit.blocks[i].tier) {
            case CacheTier::Device: stats_.hitTokensDevice += kBlockSize; break;
            case CacheTier::Ram: stats_.hitTokensRam += kBlockSize; break;
            case CacheTier::Disk: stats_.hitTokensDisk += kBlockSize; break;
        }
    }
    if (hit.tailSlot >= 0 && c == computed) stats_.hitTokensRam += hit.tailTokens;
    if (r.cachedPromptTokens < 0) r.cachedPromptTokens = std::min(c, r.numPromptTokens);

    r.numComputedTokens = c;
    n = std::min({r.numTokens() - c, config_.prefillChunk, budget.tokens});
    waiting_.erase(std::remove(waiting_.begin(), waiting_.end(), &r), waiting_.end());
    running_.push_back(&r);
    r.status = RequestStatus::Running;
    r.admittedAt = ++admitClock_;
    addToOutput(r, n, out, budget);
    return Admit::Ok;
}

void Scheduler::addDrafts(SchedulerOutput& out, Budget& budget) {
    for (ScheduledSeq& s : out.seqs) {
        if (budget.tokens <= 0) break;
        Request& r = *requests_.at(s.id);
        if (r.draft.empty() || !s.sample || s.numTokens != 1 || r.pendingTokens() != 1) continue;
        // Draft positions numTokens .. numTokens + k - 1 must stay inside the context.
        int32_t k = std::min({static_cast<int32_t>(r.draft.size()), budget.tokens, maxContext_ - r.numTokens()});
        const int32_t have = r.numComputedTokens + 1;  // the table covers these already
        if (k > 0 && !kv_.allocateSlots(r.id, have, k)) {
            // No free blocks for all of them: keep what fits in the blocks the sequence holds.
            const int32_t room = static_cast<int32_t>(kv_.blockTable(r.id).size()) * kBlockSize - have;
            k = std::min(k, room);
        }
        if (k <= 0) {
            r.draft.clear();
            continue;
        }
        r.draft.resize(k);
        s.numTokens += k;
        s.numDraft = k;
        out.numTokens += k;
        budget.tokens -= k;
    }
}

SchedulerOutput Scheduler::schedule() {
    SchedulerOutput out;
    out.step = ++stats_.steps;
    Budget budget{config_.maxBatchTokens};

    // 1. Decodes: every running request whose next token only needs one position computed.
    std::vector<Request*> decoding;
    for (Request* r : running_)
        if (r->pendingTokens() == 1) decoding.push_back(r);
    std::stable_sort(decoding.begin(), decoding.end(),
                     [](const Request* a, const Request* b) { return a->priority > b->priority; });
    for (Request* r : decoding) {
        if (budget.tokens <= 0) break;
        if (r->status != RequestStatus::Running) continue;  // preempted for an earlier one
        scheduleRunning(*r, 1, out, budget);
    }
    addDrafts(out, budget);

    // 2. Prefill chunks and admissions, taking turns across users.
    std::unordered_set<RequestId> skip;  // not again this step (scheduled, preempted or refused)
    for (const auto& s : out.seqs) skip.insert(s.id);
    for (RequestId id : out.preempted) skip.insert(id);
    bool admitting = true;
    while (budget.tokens > 0) {
        Request* best = nullptr;
        auto better = [&](const Request* a, const Request* b) {
            if (a->priority != b->priority) return a->priority > b->priority;
            const uint64_t la = lastServed(a->user), lb = lastServed(b->user);
            if (la != lb) return la < lb;
            const bool ra = a->status == RequestStatus::Running, rb = b->status == RequestStatus::Running;
            if (ra != rb) return ra;  // a user's started prefill before its next admission
            return a->arrival < b->arrival;
        };
        for (Request* r : running_)
            if (r->pendingTokens() > 1 && !skip.count(r->id) && (!best || better(r, best))) best = r;
        if (admitting && !budget.preempted)
            for (Request* r : waiting_)
                if (!skip.count(r->id) && (!best || better(r, best))) best = r;
        if (!best) break;
        skip.insert(best->id);
        const std::string user = best->user;
        const size_t preemptedBefore = out.preempted.size();
        if (best->status == RequestStatus::Running) {
            const int32_t n = std::min({best->pendingTokens(), config_.prefillChunk, budget.tokens});
            if (scheduleRunning(*best, n, out, budget)) served(user);
        } else if (admit(*best, out, budget) == Admit::Ok) {
            served(user);
        } else {
            admitting = false;  // the next in line waits for room; later ones must not overtake it
        }
        for (size_t i = preemptedBefore; i < out.preempted.size(); ++i) skip.insert(out.preempted[i]);
    }
    return out;
}

void Scheduler::fillBatch(const SchedulerOutput& out, ForwardBatch& batch) const {
    batch = ForwardBatch{};
    std::vector<TokenId> slice;
    for (const auto& s : out.seqs) {
        const Request& r = *requests_.at(s.id);
        const int32_t known = s.numTokens - s.numDraft;
        slice.assign(r.tokens.begin() + s.startPos, r.tokens.begin() + s.startPos + known);
        slice.insert(slice.end(), r.draft.begin(), r.draft.begin() + s.numDraft);
        batch.addSequence(slice, s.startPos, kv_.blockTable(s.id), s.numDraft > 0, s.sample);
    }
}

std::vector<SeqUpdate> Scheduler::update(const SchedulerOutput& out, std::span<const TokenId> sampled,
                                         std::span<const int32_t> counts) {
    std::vector<SeqUpdate> updates;
    updates.reserve(out.seqs.size());
    size_t k = 0, at = 0;  // sampled sequence, position in sampled
    for (const auto& s : out.seqs) {
        int32_t n = 0;
        if (s.sample) {
            n = counts.empty() ? 1 : k < counts.size() ? std::max(0, counts[k]) : 0;
            n = std::min(n, static_cast<int32_t>(sampled.size() - std::min(at, sampled.size())));
            ++k;
        }
        const TokenId* toks = sampled.data() + at;
        at += static_cast<size_t>(n);
        auto it = requests_.find(s.id);
        if (it == requests_.end()) {  // cannot happen: finishes happen between steps
            SeqUpdate none;
            none.id = s.id;
            updates.push_back(std::move(none));
            continue;
        }
        Request& r = *it->second;
        // The slice's known tokens all have KV now; of its drafts, only the accepted ones (the
        // target's own token that follows them is computed next step).
        const int32_t accepted = s.numDraft > 0 ? std::clamp(n - 1, 0, s.numDraft) : 0;
        r.numComputedTokens += s.numTokens - s.numDraft + accepted;
        r.computedPromptTokens += s.promptTokens;
        r.draftProposed += s.numDraft;
        r.draftAccepted += accepted;
        r.draft.clear();
        SeqUpdate u;
        u.id = r.id;
        u.draftProposed = s.numDraft;
        u.draftAccepted = accepted;
        for (int32_t j = 0; j < n && !u.finished; ++j) {
            const TokenId t = toks[j];
            r.tokens.push_back(t);
            u.tokens.push_back(t);
            if (std::find(r.stopTokens.begin(), r.stopTokens.end(), t) != r.stopTokens.end()) {
                u.finished = true;
                u.reason = FinishReason::Stop;
            } else if (r.numOutputTokens() >= r.maxOutputTokens || r.numTokens() >= maxContext_) {
                u.finished = true;
                u.reason = FinishReason::Length;
            }
        }
        // A stop partway leaves accepted KV past the last kept token: still valid, just unused.
        r.numComputedTokens = std::min(r.numComputedTokens, r.numTokens());
        BlockHasher::extend(r.blockHashes, r.tokens, r.extraKey);
        // Rejected drafts' KV: give back the blocks past the accepted positions before any block
        // can be hashed, so only blocks of accepted tokens ever enter the prefix cache.
        if (s.numDraft > 0) kv_.truncate(r.id, r.numComputedTokens);
        kv_.cacheComputedBlocks(r.id, r.blockHashes, r.numComputedTokens);
        updates.push_back(std::move(u));
        if (updates.back().finished) finish(r.id, updates.back().reason);
    }
    return updates;
}

SchedulerStats Scheduler::stats() const {
    SchedulerStats s = stats_;
    s.running = static_cast<int32_t>(running_.size());
    for (const Request* r : waiting_) {
        if (r->status == RequestStatus::Preempted) ++s.swapped;
        else ++s.waiting;
    }
    return s;
}

}  // namespace hearth
