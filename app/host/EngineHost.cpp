#include "host/EngineHost.h"

#include <atomic>

#include "host/EngineLoader.h"
#include "host/InferenceBackend.h"
#include "host/QueuedTokenSink.h"
#include "host/TokenRelay.h"

namespace hearth::app {

EngineHost::EngineHost(QObject* parent, BackendFactory factory) : QObject(parent) {
    registerHostMetaTypes();
    qRegisterMetaType<LoadTicket>();
    relay_ = TokenRelay::create();
    // The relay is emitted from the engine thread: every connection to it is queued.
    connect(relay_.get(), &TokenRelay::tokens, this, &EngineHost::tokens, Qt::QueuedConnection);
    connect(relay_.get(), &TokenRelay::finished, this, &EngineHost::onRelayFinished, Qt::QueuedConnection);
    connect(relay_.get(), &TokenRelay::failed, this, &EngineHost::onRelayFailed, Qt::QueuedConnection);

    loader_ = loaderThread_.start(new EngineLoader(std::move(factory)));
    connect(this, &EngineHost::loadRequested, loader_, &EngineLoader::load, Qt::QueuedConnection);
    connect(this, &EngineHost::releaseRequested, loader_, &EngineLoader::release, Qt::QueuedConnection);
    connect(loader_, &EngineLoader::progress, this, &EngineHost::onLoaderProgress, Qt::QueuedConnection);
    connect(loader_, &EngineLoader::loaded, this, &EngineHost::onLoaderLoaded, Qt::QueuedConnection);
    connect(loader_, &EngineLoader::failed, this, &EngineHost::onLoaderFailed, Qt::QueuedConnection);
    connect(loader_, &EngineLoader::released, this, &EngineHost::unloaded, Qt::QueuedConnection);
}

EngineHost::~EngineHost() {
    if (loadTicket_.cancel) loadTicket_.cancel->store(true);
    loaderThread_.stop();  // a load in flight sees the cancel flag at its next progress report
    backend_.reset();      // joins the engine thread here: no sink call outlives the host
}

void EngineHost::setState(State s) {
    if (s == state_) return;
    state_ = s;
    emit stateChanged(s);
}

QString EngineHost::modelName() const {
    return backend_ ? QString::fromStdString(backend_->modelName()) : QString();
}

QString EngineHost::modelPath() const {
    return backend_ ? QString::fromStdString(backend_->modelPath()) : QString();
}

Status EngineHost::load(const EngineConfig& config) {
    if (state_ == State::Loading) return makeError(ErrorCode::InvalidArgument, "a model is already loading");
    if (config.modelPath.empty()) return makeError(ErrorCode::InvalidArgument, "no model file was chosen");
    unload();
    config_ = config;
    loadTicket_ = LoadTicket{nextTicket_++, std::make_shared<std::atomic<bool>>(false)};
    setState(State::Loading);
    emit loadRequested(loadTicket_, config_);
    return Status::success();
}

void EngineHost::cancelLoad() {
    if (state_ != State::Loading) return;
    loadTicket_.cancel->store(true);
    // The loader answers with failed(cancelled) once its factory returns; until then the state
    // stays Loading so that a second load cannot start while the first still holds memory.
}

void EngineHost::unload() {
    if (state_ == State::Loading) {
        cancelLoad();
        return;
    }
    if (!backend_) return;
    SharedBackend released = std::move(backend_);
    backend_.reset();
    active_.clear();  // the engine ends them (Cancelled) as it shuts down; late signals still arrive
    setState(State::Empty);
    emit releaseRequested(released);
}

Result<RequestId> EngineHost::submit(GenerationRequest request) {
    if (!backend_) return makeError(ErrorCode::Unavailable, "no model is loaded");
    const RequestId id = backend_->submit(std::move(request), std::make_shared<QueuedTokenSink>(relay_));
    active_.insert(id);
    return id;
}

void EngineHost::cancel(RequestId id) {
    if (backend_ && active_.contains(id)) backend_->cancel(id);
}

std::optional<EngineStats> EngineHost::stats() const {
    if (!backend_) return std::nullopt;
    return backend_->stats();
}

void EngineHost::onLoaderProgress(quint64 ticket, double fraction) {
    if (ticket == loadTicket_.number && state_ == State::Loading) emit loadProgress(fraction);
}

void EngineHost::onLoaderLoaded(quint64 ticket, const SharedBackend& backend) {
    if (ticket != loadTicket_.number || state_ != State::Loading) {
        emit releaseRequested(backend);  // superseded: free it where it was made
        return;
    }
    if (loadTicket_.cancelled()) {  // the cancel crossed the finished load
        emit releaseRequested(backend);
        setState(State::Empty);
        emit loadFailed(tr("Loading was cancelled."), true);
        return;
    }
    backend_ = backend;
    setState(State::Ready);
    emit loaded();
}

void EngineHost::onLoaderFailed(quint64 ticket, const QString& message, bool cancelled) {
    if (ticket != loadTicket_.number || state_ != State::Loading) return;
    setState(State::Empty);
    emit loadFailed(message, cancelled);
}

void EngineHost::onRelayFinished(quint64 id, FinishReason reason, const Usage& usage) {
    active_.remove(id);
    emit finished(id, reason, usage);
}

void EngineHost::onRelayFailed(quint64 id, const QString& message) {
    active_.remove(id);
    emit failed(id, message);
}

}  // namespace hearth::app
