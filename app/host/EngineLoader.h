#pragma once
// Loads and releases backends on the engine host's loader thread, so neither reading gigabytes of
// weights nor joining an engine thread at unload ever blocks the GUI thread. Lives on a
// WorkerThread; reached only through queued connections.

#include <QObject>
#include <QString>

#include "host/BackendFactory.h"
#include "host/HostMetaTypes.h"
#include "host/LoadTicket.h"

namespace hearth::app {

class EngineLoader : public QObject {
    Q_OBJECT
public:
    explicit EngineLoader(BackendFactory factory) : factory_(std::move(factory)) {}

public slots:
    void load(const hearth::app::LoadTicket& ticket, const hearth::EngineConfig& config);
    // Drops the host's reference here (the engine's destructor joins its thread).
    void release(const hearth::app::SharedBackend& backend);

signals:
    void progress(quint64 ticket, double fraction);
    void loaded(quint64 ticket, const hearth::app::SharedBackend& backend);
    void failed(quint64 ticket, const QString& message, bool cancelled);
    void released();

private:
    BackendFactory factory_;
};

}  // namespace hearth::app
