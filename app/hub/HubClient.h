#pragma once
// Client for the Hugging Face hub's public JSON API (or a mirror, or a loopback test server: the
// base URL is the AppSettings hub URL): model search, a repo's file listing with sizes and LFS
// SHA-256, a repo's config.json, and the download URL of a file. An optional access token is sent
// as "Authorization: Bearer" to the base URL's host only. Errors (HTTP status, bad JSON, network,
// timeout) come back as HubError values through the callback; TLS errors are never ignored.
//
// Threads: use on one thread (the GUI's); callbacks run there, and not at all once `context` is
// destroyed. Every callback runs exactly once otherwise, never synchronously inside the call.
#include <QJsonObject>
#include <QList>
#include <QNetworkRequest>
#include <QObject>
#include <QUrl>
#include <functional>

#include "hub/HubFile.h"
#include "hub/HubModelSummary.h"
#include "hub/HubResult.h"
#include "hub/HubSearchQuery.h"

class QNetworkAccessManager;
class QNetworkReply;

namespace hearth::app {

class HubClient : public QObject {
    Q_OBJECT
public:
    template <class T>
    using Callback = std::function<void(HubResult<T>)>;
    static constexpr int kMaxTreePages = 50;

    explicit HubClient(QObject* parent = nullptr);

    void setBaseUrl(const QUrl& url) { base_ = url.adjusted(QUrl::StripTrailingSlash); }
    QUrl baseUrl() const { return base_; }
    void setToken(const QString& token) { token_ = token; }
    bool hasToken() const { return !token_.isEmpty(); }
    void setTimeoutMs(int ms) { timeoutMs_ = ms; }

    static bool isValidRepoId(const QString& repo);
    QUrl searchUrl(const HubSearchQuery& query) const;
    QUrl treeUrl(const QString& repo) const;
    QUrl fileUrl(const QString& repo, const QString& path) const;  // {base}/{repo}/resolve/main/{path}
    // A GET request with the User-Agent, the timeout and (for the hub's host) the token.
    QNetworkRequest makeRequest(const QUrl& url) const;

    void searchModels(const HubSearchQuery& query, QObject* context, Callback<QList<HubModelSummary>> done);
    // Every file of the repo (all pages of the listing).
    void listFiles(const QString& repo, QObject* context, Callback<QList<HubFile>> done);
    void fetchConfig(const QString& repo, QObject* context, Callback<QJsonObject> done);
    // Ends every request in flight (their callbacks get Cancelled).
    void abortAll();

signals:
    void abortRequested();

private:
    using BodyCallback = std::function<void(HubResult<QByteArray> body, QString nextLink)>;
    void get(const QUrl& url, QObject* context, BodyCallback done);
    void listPage(const QUrl& url, const QString& repo, int page, QList<HubFile> sofar, QObject* context,
                  Callback<QList<HubFile>> done);
    template <class T>
    void failSoon(QObject* context, const Callback<T>& done, HubError error);

    QNetworkAccessManager* network_;
    QUrl base_;
    QString token_;
    int timeoutMs_ = 30000;
};

}  // namespace hearth::app
