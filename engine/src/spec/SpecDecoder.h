#pragma once
// Speculative decoding for the step loop: before the scheduler runs, proposes draft tokens for the
// sequences that decode this step (Request::draft); after verification, learns from what the target
// accepted.
//
// Proposers (SpecConfig::method):
// - NGram: prompt lookup over the request's own tokens (NGramProposer, minNgram..maxNgram);
// - Index: the same first; when the request's own context has no match, the domain index;
// - Draft: a draft model (DraftModelRunner); for sampled requests its drafts are drawn from its
//   distribution q with the request's sampling settings (no penalties), and q goes to verification.
// How many drafts each sequence gets comes from DraftPlanner (its acceptance rate per proposer and
// the measured step costs), capped by maxDraft and the request's remaining output tokens; nobody
// gets any while disableAboveBatch or more sequences decode at once, or for constrained output.
//
// Invariants: states_ holds exactly the requests proposed for and not yet released; a state's
// n-gram proposer holds a prefix of its request's tokens (brought up to date at proposal time;
// tokens only grow); counters count the drafts the target verified (after the scheduler trimmed
// them) and those it accepted, per proposer.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "hearth/engine.h"
#include "scheduler/Request.h"
#include "scheduler/SchedulerOutput.h"
#include "spec/DomainIndex.h"
#include "spec/DraftModelRunner.h"
#include "spec/DraftPlanner.h"
#include "spec/NGramProposer.h"

namespace hearth {

enum class DraftSource : uint8_t { None, NGram, Index, Model };
constexpr size_t kDraftSources = 4;

struct SpecCounters {
    std::array<uint64_t, kDraftSources> proposed{}, accepted{};  // indexed by DraftSource
    uint64_t steps = 0;  // steps in which some sequence verified drafts
};

// What the engine loaded for the configured method.
struct SpecResources {
    std::shared_ptr<const DomainIndex> index;    // SpecMethod::Index
    std::unique_ptr<Backend> draftBackend;       // SpecMethod::Draft (KV not allocated yet)
    int32_t draftContext = 0;
    uint32_t draftKvBlocks = 0;                  // the draft's pool (16-token blocks)
};

class SpecDecoder {
public:
    static Result<std::unique_ptr<SpecDecoder>> create(const SpecConfig& config, SpecResources resources,
                                                       KvDType kvType, int32_t maxBatchTokens);

    struct Target {
        Request* request = nullptr;
        Sampler* sampler = nullptr;  // the request's own (greedy or not)
        bool eligible = true;        // false: decodes without drafts (constrained output)
    };
    // Sets Request::draft for the decoding sequences (all of this step's, eligible or not).
    Status propose(std::span<const Target> seqs);
    // q for the current drafts of a sequence (draft model and sampled request), else null.
    const std::vector<std::vector<Candidate>>* draftDists(RequestId id) const;
    void observe(const SeqUpdate& update);
    // The target's measured step (forward and verification), for the cost model.
    void recordStep(int32_t tokens, bool withDrafts, double seconds) {
        planner_.recordStep(tokens, withDrafts, seconds);
        counters_.steps += withDrafts;
    }
    void release(RequestId id);
    // Tests: fixed step costs instead of measured ones (see DraftPlanner::fixCosts).
    void fixCosts(double ratio) { planner_.fixCosts(ratio); }

    const SpecConfig& config() const { return config_; }
    const SpecCounters& counters() const { return counters_; }
    const DraftModelRunner* draftModel() const { return draft_.get(); }

private:
    struct SeqState {
        SeqState(int minN, int maxN) : ngram(minN, maxN) {}
        NGramProposer ngram;
        std::array<double, kDraftSources> acc{}, rej{};  // decayed accepted / rejected drafts
        DraftSource source = DraftSource::None;           // of the current drafts
        std::vector<TokenId> proposal;
        std::vector<std::vector<Candidate>> dists;        // q of the current model drafts
        std::unique_ptr<Sampler> draftSampler;            // q's sampler (sampled requests)
    };
    SpecDecoder(const SpecConfig& config, SpecResources resources, std::unique_ptr<DraftModelRunner> draft);
    SeqState& state(const Request& r);
    double alpha(const SeqState& st, DraftSource s) const;
    // Fills st.proposal from the request's own tokens, then the index; returns the source.
    DraftSource lookup(SeqState& st, const Request& r, int32_t limit);

    SpecConfig config_;
    std::shared_ptr<const DomainIndex> index_;
    std::unique_ptr<DraftModelRunner> draft_;
    DraftPlanner planner_;
    std::unordered_map<RequestId, std::unique_ptr<SeqState>> states_;
    SpecCounters counters_;
    std::array<double, kDraftSources> globalAcc_{}, globalRej_{};  // priors for new sequences

    std::vector<DraftPlanner::Seq> planSeqs_;
    std::vector<int32_t> planK_;
    std::vector<DraftModelRunner::Job> jobs_;
};

}  // namespace hearth
