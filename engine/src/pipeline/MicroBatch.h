#pragma once
// Splitting one forward step into micro-batches for pipeline parallelism: consecutive groups of
// sequences, balanced by token count, each a self-contained ForwardBatch (indices re-based).
//
// Invariants: the parts' sequences, in order, are the batch's sequences; part i's logit rows are
// the batch's logit rows of its sequences, so concatenating the parts' logits (or sampled tokens)
// in part order gives the batch's rows in its own order.

#include <vector>

#include "backend/ForwardBatch.h"

namespace hearth {

struct MicroBatch {
    ForwardBatch batch;
    int32_t firstLogitRow = 0;  // index of its first logit row in the whole batch
};

// At most `parts` micro-batches (fewer when there are fewer sequences).
std::vector<MicroBatch> splitMicroBatches(const ForwardBatch& b, int parts);

}  // namespace hearth
