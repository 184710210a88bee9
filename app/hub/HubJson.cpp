#include "hub/HubJson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace hearth::app {
namespace {

HubError bad(const QString& message) { return HubError{HubError::Kind::BadResponse, 0, message}; }

HubResult<QJsonArray> parseArray(const QByteArray& body, const char* what) {
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        return bad(QString("the hub sent invalid JSON for %1: %2 at byte %3").arg(what, error.errorString()).arg(error.offset));
    if (!doc.isArray()) return bad(QString("the hub's %1 answer is not a JSON array").arg(what));
    return doc.array();
}

bool isHex(const QString& s, int length) {
    static const QRegularExpression hex("^[0-9a-f]+$");
    return s.size() == length && hex.match(s).hasMatch();
}

QDateTime time(const QJsonObject& o, const char* key) {
    return QDateTime::fromString(o.value(key).toString(), Qt::ISODateWithMs);
}

}  // namespace

HubResult<QList<HubModelSummary>> HubJson::parseModels(const QByteArray& body) {
    auto array = parseArray(body, "model search");
    if (!array.ok()) return array.error();
    QList<HubModelSummary> out;
    for (const QJsonValue& v : array.value()) {
        const QJsonObject o = v.toObject();
        const QString id = o.value("id").toString(o.value("modelId").toString());
        if (!v.isObject() || id.isEmpty() || !id.contains('/'))
            return bad("a model search entry has no \"id\" of the form owner/name");
        HubModelSummary m;
        m.id = id;
        m.author = o.value("author").toString(id.section('/', 0, 0));
        m.downloads = qint64(o.value("downloads").toDouble());
        m.likes = qint64(o.value("likes").toDouble());
        for (const QJsonValue& t : o.value("tags").toArray()) m.tags << t.toString();
        m.pipelineTag = o.value("pipeline_tag").toString();
        m.libraryName = o.value("library_name").toString();
        const QJsonValue gated = o.value("gated");
        m.gated = gated.isString() ? gated.toString() : gated.toBool() ? QStringLiteral("auto") : QString();
        m.isPrivate = o.value("private").toBool();
        m.createdAt = time(o, "createdAt");
        m.lastModified = time(o, "lastModified");
        out.append(m);
    }
    return out;
}

HubResult<QList<HubFile>> HubJson::parseTree(const QByteArray& body) {
    auto array = parseArray(body, "file listing");
    if (!array.ok()) return array.error();
    QList<HubFile> out;
    for (const QJsonValue& v : array.value()) {
        const QJsonObject o = v.toObject();
        const QString type = o.value("type").toString();
        const QString path = o.value("path").toString();
        if (!v.isObject() || path.isEmpty() || type.isEmpty())
            return bad("a file listing entry lacks \"type\" or \"path\"");
        if (type != "file") continue;  // "directory": recursive listings list the files inside too
        if (path.startsWith('/') || path.split('/').contains(".."))
            return bad("the file listing has an unsafe path: " + path);
        HubFile f;
        f.path = path;
        f.gitOid = o.value("oid").toString();
        f.size = qint64(o.value("size").toDouble(-1));
        const QJsonObject lfs = o.value("lfs").toObject();
        if (!lfs.isEmpty()) {
            const QString sha = lfs.value("oid").toString().toLower();
            if (!isHex(sha, 64)) return bad("the LFS oid of " + path + " is not a SHA-256");
            f.sha256 = sha;
            f.size = qint64(lfs.value("size").toDouble(double(f.size)));
        }
        if (f.size < 0) return bad("the file listing has no size for " + path);
        out.append(f);
    }
    return out;
}

QString HubJson::errorMessage(const QByteArray& body) {
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isObject() && doc.object().value("error").isString()) return doc.object().value("error").toString();
    return QString::fromUtf8(body.left(200)).simplified();
}

QString HubJson::nextLink(const QByteArray& linkHeader) {
    static const QRegularExpression entry(R"(<([^>]+)>\s*;\s*rel="?next"?)");
    const auto m = entry.match(QString::fromUtf8(linkHeader));
    return m.hasMatch() ? m.captured(1) : QString();
}

}  // namespace hearth::app
