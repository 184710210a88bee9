#include "LoopbackHttpServer.h"

#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

namespace hearth::test {
namespace {

QByteArray reasonPhrase(int status) {
    switch (status) {
    case 200: return "OK";
    case 206: return "Partial Content";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 416: return "Range Not Satisfiable";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

// Streams one response on one socket, then closes it; deletes itself with the socket.
void sendResponse(QTcpSocket* socket, const HttpResponse& response) {
    QByteArray head = "HTTP/1.1 " + QByteArray::number(response.status) + " " + reasonPhrase(response.status) + "\r\n";
    const qint64 length = response.contentLength.value_or(response.body.size());
    head += "Content-Length: " + QByteArray::number(length) + "\r\n";
    head += "Connection: close\r\n";
    for (const auto& [name, value] : response.headers) head += name + ": " + value + "\r\n";
    head += "\r\n";
    const QByteArray body = response.dropAfter >= 0 ? response.body.left(response.dropAfter) : response.body;
    QPointer<QTcpSocket> guard(socket);
    // A dropped response ends with a FIN before Content-Length is reached (the client sees the
    // bytes that were sent, then a closed connection).
    auto finish = [guard] {
        if (guard) guard->disconnectFromHost();
    };
    auto start = [guard, head, body, response, finish] {
        if (!guard) return;
        guard->write(head);
        if (response.bytesPerTick <= 0) {
            guard->write(body);
            if (guard->bytesToWrite() == 0) finish();
            else QObject::connect(guard, &QTcpSocket::bytesWritten, guard, [guard, finish] {
                if (guard && guard->bytesToWrite() == 0) finish();
            });
            return;
        }
        auto* timer = new QTimer(guard);
        auto offset = std::make_shared<qint64>(0);
        QObject::connect(timer, &QTimer::timeout, guard, [guard, timer, body, offset, response, finish] {
            if (!guard) return;
            if (*offset >= body.size()) {
                timer->stop();
                finish();
                return;
            }
            const QByteArray piece = body.mid(*offset, response.bytesPerTick);
            *offset += piece.size();
            guard->write(piece);
        });
        timer->start(response.tickMs);
    };
    if (response.delayMs > 0) QTimer::singleShot(response.delayMs, socket, start);
    else start();
}

}  // namespace

std::optional<qint64> HttpRequest::rangeStart() const {
    const QByteArray range = header("range").trimmed();
    if (!range.startsWith("bytes=")) return std::nullopt;
    const QByteArray spec = range.mid(6);
    const int dash = spec.indexOf('-');
    if (dash <= 0) return std::nullopt;
    bool ok = false;
    const qint64 start = spec.left(dash).toLongLong(&ok);
    return ok ? std::optional<qint64>(start) : std::nullopt;
}

HttpResponse HttpResponse::json(const QByteArray& body, int status) {
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.header("Content-Type", "application/json; charset=utf-8");
    return r;
}

HttpResponse HttpResponse::text(int status, const QByteArray& body) {
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.header("Content-Type", "text/plain");
    return r;
}

HttpResponse HttpResponse::file(const HttpRequest& request, const QByteArray& data, bool honourRange) {
    HttpResponse r;
    r.header("Content-Type", "application/octet-stream");
    r.header("Accept-Ranges", "bytes");
    const auto start = honourRange ? request.rangeStart() : std::nullopt;
    if (!start) {
        r.body = data;
        return r;
    }
    if (*start >= data.size()) {
        r.status = 416;
        r.header("Content-Range", "bytes */" + QByteArray::number(data.size()));
        return r;
    }
    r.status = 206;
    r.body = data.mid(*start);
    r.header("Content-Range", "bytes " + QByteArray::number(*start) + "-" + QByteArray::number(data.size() - 1) +
                                  "/" + QByteArray::number(data.size()));
    return r;
}

LoopbackHttpServer::LoopbackHttpServer(QObject* parent) : QObject(parent) {
    connect(&server_, &QTcpServer::newConnection, this, &LoopbackHttpServer::onNewConnection);
}

bool LoopbackHttpServer::listen() { return server_.listen(QHostAddress::LocalHost, 0); }

QUrl LoopbackHttpServer::url(const QString& pathAndQuery) const {
    return QUrl(QString("http://127.0.0.1:%1%2").arg(port()).arg(pathAndQuery));
}

int LoopbackHttpServer::countRequests(const QByteArray& pathPrefix) const {
    int n = 0;
    for (const HttpRequest& r : requests_)
        if (r.path().startsWith(pathPrefix)) ++n;
    return n;
}

void LoopbackHttpServer::onNewConnection() {
    while (QTcpSocket* socket = server_.nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            buffer->append(socket->readAll());
            const int end = buffer->indexOf("\r\n\r\n");
            if (end < 0 || socket->property("answered").toBool()) return;
            socket->setProperty("answered", true);
            HttpRequest request;
            const QList<QByteArray> lines = buffer->left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            request.method = first.value(0);
            request.target = first.value(1);
            for (int i = 1; i < lines.size(); ++i) {
                const int colon = lines[i].indexOf(':');
                if (colon > 0)
                    request.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
            }
            requests_.append(request);
            sendResponse(socket, handler_ ? handler_(request) : HttpResponse::text(404, "no handler"));
        });
    }
}

}  // namespace hearth::test
