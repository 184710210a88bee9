#pragma once
// Owns the loaded model for the desktop app: loads and unloads it on a loader thread (progress,
// cancel), submits generation requests and turns the engine's sink callbacks into queued Qt
// signals on the GUI thread. Several requests (several chats, the API server) run at once; each
// signal carries its request id.
//
// Threads: an EngineHost lives on the GUI thread and is used there only. The backend's engine
// thread calls sinks, which emit through a TokenRelay connected with Qt::QueuedConnection; the
// loader thread is reached through queued connections too.
//
// Invariants: state() is Ready exactly when backend() is non-null; at most one load is in flight
// (its ticket is loadTicket_); signals of a superseded or cancelled load are ignored; every id
// returned by submit() gets exactly one finished() or failed() (an unload ends running requests
// as Cancelled through the engine itself).

#include <QObject>
#include <QSet>
#include <QString>
#include <memory>
#include <optional>

#include "core/WorkerThread.h"
#include "hearth/engine.h"
#include "hearth/result.h"
#include "host/BackendFactory.h"
#include "host/HostMetaTypes.h"
#include "host/LoadTicket.h"

namespace hearth::app {

class EngineLoader;
class TokenRelay;

class EngineHost : public QObject {
    Q_OBJECT
public:
    enum class State { Empty, Loading, Ready };
    Q_ENUM(State)

    explicit EngineHost(QObject* parent = nullptr, BackendFactory factory = engineBackendFactory());
    ~EngineHost() override;

    // Starts loading `config` (a loaded model is unloaded first). InvalidArgument while a load
    // is already in flight or when the config names no model.
    Status load(const EngineConfig& config);
    void cancelLoad();
    // Releases the model (running requests end as Cancelled). No-op when nothing is loaded.
    void unload();

    State state() const { return state_; }
    bool isReady() const { return state_ == State::Ready; }
    // The config of the model that is loaded or loading.
    const EngineConfig& config() const { return config_; }
    InferenceBackend* backend() const { return backend_.get(); }
    SharedBackend sharedBackend() const { return backend_; }  // the API server keeps one
    QString modelName() const;
    QString modelPath() const;

    // Submits to the loaded model; Unavailable when none is.
    Result<RequestId> submit(GenerationRequest request);
    void cancel(RequestId id);
    bool isActive(RequestId id) const { return active_.contains(id); }
    int activeRequests() const { return int(active_.size()); }
    std::optional<EngineStats> stats() const;

signals:
    void stateChanged(hearth::app::EngineHost::State state);
    void loadProgress(double fraction);
    void loaded();
    void loadFailed(const QString& message, bool cancelled);
    void unloaded();

    void tokens(quint64 id, const QString& delta, int tokenCount);
    void finished(quint64 id, hearth::FinishReason reason, const hearth::Usage& usage);
    void failed(quint64 id, const QString& message);

    // to the loader (queued)
    void loadRequested(const hearth::app::LoadTicket& ticket, const hearth::EngineConfig& config);
    void releaseRequested(const hearth::app::SharedBackend& backend);

private:
    void setState(State s);
    void onLoaderProgress(quint64 ticket, double fraction);
    void onLoaderLoaded(quint64 ticket, const SharedBackend& backend);
    void onLoaderFailed(quint64 ticket, const QString& message, bool cancelled);
    void onRelayFinished(quint64 id, hearth::FinishReason reason, const hearth::Usage& usage);
    void onRelayFailed(quint64 id, const QString& message);

    WorkerThread loaderThread_{"hearth-engine-loader"};
    EngineLoader* loader_ = nullptr;
    std::shared_ptr<TokenRelay> relay_;
    SharedBackend backend_;
    EngineConfig config_;
    State state_ = State::Empty;
    LoadTicket loadTicket_;
    quint64 nextTicket_ = 1;
    QSet<RequestId> active_;
};

}  // namespace hearth::app
