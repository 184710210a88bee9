#include "kv/BlockTransfer.h"

#include <algorithm>
#include <cstring>

namespace hearth {

BlockTransfer::BlockTransfer(Backend& backend, uint64_t blockBytes, uint64_t maxStagingBytes)
    : backend_(backend),
      blockBytes_(blockBytes),
      group_(static_cast<size_t>(std::max<uint64_t>(1, blockBytes ? maxStagingBytes / blockBytes : 1))) {}

Status BlockTransfer::toHost(std::span<const int32_t> blocks, std::span<uint8_t* const> host) {
    for (size_t at = 0; at < blocks.size(); at += group_) {
        const size_t n = std::min(group_, blocks.size() - at);
        if (n == 1) {
            HEARTH_TRY(backend_.copyBlocksToHost(blocks.subspan(at, 1), host[at]));
            continue;
        }
        staging_.resize(n * blockBytes_);
        HEARTH_TRY(backend_.copyBlocksToHost(blocks.subspan(at, n), staging_.data()));
        for (size_t i = 0; i < n; ++i) std::memcpy(host[at + i], staging_.data() + i * blockBytes_, blockBytes_);
    }
    return Status::success();
}

Status BlockTransfer::fromHost(std::span<const int32_t> blocks, std::span<const uint8_t* const> host) {
    for (size_t at = 0; at < blocks.size(); at += group_) {
        const size_t n = std::min(group_, blocks.size() - at);
        if (n == 1) {
            HEARTH_TRY(backend_.copyBlocksFromHost(blocks.subspan(at, 1), host[at]));
            continue;
        }
        staging_.resize(n * blockBytes_);
        for (size_t i = 0; i < n; ++i) std::memcpy(staging_.data() + i * blockBytes_, host[at + i], blockBytes_);
        HEARTH_TRY(backend_.copyBlocksFromHost(blocks.subspan(at, n), staging_.data()));
    }
    return Status::success();
}

}  // namespace hearth
