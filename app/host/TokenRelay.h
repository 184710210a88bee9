#pragma once
// The GUI-thread end of every request the engine host submits. Sinks call the relay's post*()
// methods on the engine thread; those emit the signals below, which the host connects with
// Qt::QueuedConnection, so receivers run on the GUI thread in the order the engine produced them.
//
// Lifetime: shared by the host and every live sink (std::shared_ptr whose deleter is
// deleteLater(), so the QObject is destroyed on its own thread even when the last sink dies on
// the engine thread). The post*() methods only emit signals and touch no other state.

#include <QObject>
#include <QString>
#include <memory>

#include "host/HostMetaTypes.h"

namespace hearth::app {

class TokenRelay : public QObject {
    Q_OBJECT
public:
    static std::shared_ptr<TokenRelay> create();

    // Called on the engine thread.
    void postTokens(quint64 id, const QString& delta, int tokenCount) { emit tokens(id, delta, tokenCount); }
    void postFinished(quint64 id, hearth::FinishReason reason, const hearth::Usage& usage) {
        emit finished(id, reason, usage);
    }
    void postFailed(quint64 id, const QString& message) { emit failed(id, message); }

signals:
    void tokens(quint64 id, const QString& delta, int tokenCount);
    void finished(quint64 id, hearth::FinishReason reason, const hearth::Usage& usage);
    void failed(quint64 id, const QString& message);

private:
    TokenRelay() = default;
};

}  // namespace hearth::app
