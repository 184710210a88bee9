#include "hub/HubClient.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QRegularExpression>
#include <QTimer>
#include <QUrlQuery>

#include "AppVersion.h"
#include "hub/HubJson.h"

namespace hearth::app {

HubClient::HubClient(QObject* parent)
    : QObject(parent), network_(new QNetworkAccessManager(this)), base_("https://huggingface.co") {}

bool HubClient::isValidRepoId(const QString& repo) {
    static const QRegularExpression re(R"(^[A-Za-z0-9][A-Za-z0-9_.\-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.\-]{0,95}$)");
    return re.match(repo).hasMatch() && !repo.contains("..");
}

QUrl HubClient::searchUrl(const HubSearchQuery& q) const {
    QUrl url = base_;
    url.setPath(base_.path() + "/api/models");
    QUrlQuery query;
    if (!q.text.trimmed().isEmpty()) query.addQueryItem("search", q.text.trimmed());
    if (q.ggufOnly) query.addQueryItem("filter", "gguf");
    const char* sort = q.sort == HubSearchQuery::Sort::Likes          ? "likes"
                       : q.sort == HubSearchQuery::Sort::Trending     ? "trendingScore"
                       : q.sort == HubSearchQuery::Sort::LastModified ? "lastModified"
                                                                      : "downloads";
    query.addQueryItem("sort", sort);
    query.addQueryItem("direction", "-1");
    query.addQueryItem("limit", QString::number(std::clamp(q.limit, 1, 100)));
    url.setQuery(query);
    return url;
}

QUrl HubClient::treeUrl(const QString& repo) const {
    QUrl url = base_;
    url.setPath(base_.path() + "/api/models/" + repo + "/tree/main");
    url.setQuery("recursive=true");
    return url;
}

QUrl HubClient::fileUrl(const QString& repo, const QString& path) const {
    QUrl url = base_;
    url.setPath(base_.path() + "/" + repo + "/resolve/main/" + path);
    return url;
}

QNetworkRequest HubClient::makeRequest(const QUrl& url) const {
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::UserAgentHeader, QString("Hearth/%1").arg(versionString()));
    request.setTransferTimeout(timeoutMs_);
    // The token goes only to the hub itself, never to a host a listing or redirect names.
    if (!token_.isEmpty() && url.host() == base_.host() && url.port() == base_.port())
        request.setRawHeader("Authorization", "Bearer " + token_.toUtf8());
    return request;
}

template <class T>
void HubClient::failSoon(QObject* context, const Callback<T>& done, HubError error) {
    QTimer::singleShot(0, context, [done, error] { done(error); });
}

void HubClient::get(const QUrl& url, QObject* context, BodyCallback done) {
    QNetworkReply* reply = network_->get(makeRequest(url));
    auto aborted = std::make_shared<bool>(false);
    connect(this, &HubClient::abortRequested, reply, [reply, aborted] {
        *aborted = true;
        reply->abort();
    });
    QPointer<QObject> guard(context);
    connect(reply, &QNetworkReply::finished, this, [reply, aborted, guard, done] {
        reply->deleteLater();
        if (!guard) return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = reply->isOpen() ? reply->readAll() : QByteArray();
        if (status >= 400) {
            HubError e{HubError::Kind::Http, status, HubJson::errorMessage(body)};
            if (e.needsToken())
                e.message = tr("%1 (HTTP %2): this repo may be gated or private; set an access token")
                                .arg(e.message).arg(status);
            else
                e.message = tr("%1 (HTTP %2)").arg(e.message).arg(status);
            done(e, {});
            return;
        }
        if (reply->error() != QNetworkReply::NoError) {
            const bool timeout = reply->error() == QNetworkReply::TimeoutError ||
                                 (reply->error() == QNetworkReply::OperationCanceledError && !*aborted);
            const HubError::Kind kind = *aborted ? HubError::Kind::Cancelled
                                        : timeout ? HubError::Kind::Timeout
                                                  : HubError::Kind::Network;
            done(HubError{kind, 0, timeout ? tr("the hub did not answer in time") : reply->errorString()}, {});
            return;
        }
        done(body, HubJson::nextLink(reply->rawHeader("Link")));
    });
}

void HubClient::searchModels(const HubSearchQuery& query, QObject* context, Callback<QList<HubModelSummary>> done) {
    get(searchUrl(query), context, [done](HubResult<QByteArray> body, QString) {
        if (!body.ok()) return done(body.error());
        done(HubJson::parseModels(body.value()));
    });
}

void HubClient::listFiles(const QString& repo, QObject* context, Callback<QList<HubFile>> done) {
    if (!isValidRepoId(repo))
        return failSoon(context, done, HubError{HubError::Kind::InvalidInput, 0, tr("not a repo id: %1").arg(repo)});
    listPage(treeUrl(repo), repo, 1, {}, context, std::move(done));
}

void HubClient::listPage(const QUrl& url, const QString& repo, int page, QList<HubFile> sofar, QObject* context,
                         Callback<QList<HubFile>> done) {
    QPointer<QObject> guard(context);
    get(url, context, [this, repo, page, sofar, guard, done](HubResult<QByteArray> body, QString next) mutable {
        if (!body.ok()) return done(body.error());
        auto files = HubJson::parseTree(body.value());
        if (!files.ok()) return done(files.error());
        sofar += files.value();
        if (next.isEmpty()) return done(sofar);
        const QUrl nextUrl = base_.resolved(QUrl(next));
        if (nextUrl.host() != base_.host() || nextUrl.port() != base_.port() || page >= kMaxTreePages)
            return done(HubError{HubError::Kind::BadResponse, 0,
                                 tr("the listing of %1 continues somewhere unexpected (%2)").arg(repo, next)});
        if (guard) listPage(nextUrl, repo, page + 1, sofar, guard, done);
    });
}

void HubClient::fetchConfig(const QString& repo, QObject* context, Callback<QJsonObject> done) {
    if (!isValidRepoId(repo))
        return failSoon(context, done, HubError{HubError::Kind::InvalidInput, 0, tr("not a repo id: %1").arg(repo)});
    get(fileUrl(repo, "config.json"), context, [done](HubResult<QByteArray> body, QString) {
        if (!body.ok()) return done(body.error());
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(body.value(), &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return done(HubError{HubError::Kind::BadResponse, 0, tr("config.json is not a JSON object")});
        done(doc.object());
    });
}

void HubClient::abortAll() { emit abortRequested(); }

}  // namespace hearth::app
