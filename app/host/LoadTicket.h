#pragma once
// One load attempt: a number that tells the host which attempt a late loader signal belongs to,
// and the flag the loader's progress callback reads to cancel it.
// Invariant: number > 0 for a real attempt; cancel is never null for one.

#include <QMetaType>
#include <atomic>
#include <memory>

namespace hearth::app {

struct LoadTicket {
    quint64 number = 0;
    std::shared_ptr<std::atomic<bool>> cancel;

    bool cancelled() const { return cancel && cancel->load(); }
};

}  // namespace hearth::app

Q_DECLARE_METATYPE(hearth::app::LoadTicket)
