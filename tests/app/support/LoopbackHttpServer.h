#pragma once
// A small HTTP/1.1 server on 127.0.0.1 for the app tests, built on QTcpServer. Every response
// closes the connection (Connection: close). A handler decides each response and can make it
// misbehave the ways real servers do: drop the connection midway, send a Content-Length that lies,
// answer 200 to a Range request, be slow, fail with 5xx.
//
// It runs on the thread that created it (the test's main thread); the code under test may use its
// own threads. Invariant: requests() lists every parsed request in arrival order.

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QTcpServer>
#include <QUrl>
#include <functional>
#include <optional>

namespace hearth::test {

struct HttpRequest {
    QByteArray method;
    QByteArray target;                  // path and query as sent
    QMap<QByteArray, QByteArray> headers;  // names lower-cased
    QByteArray path() const { return target.split('?').first(); }
    QByteArray header(const QByteArray& name) const { return headers.value(name.toLower()); }
    // The first byte of "Range: bytes=N-" when present.
    std::optional<qint64> rangeStart() const;
};

struct HttpResponse {
    int status = 200;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    std::optional<qint64> contentLength;  // sent instead of body.size() (a lie, when different)
    qint64 dropAfter = -1;     // close the socket after this many body bytes
    int bytesPerTick = 0;      // > 0: send this many body bytes every tickMs (a slow server)
    int tickMs = 10;
    int delayMs = 0;           // wait before sending anything (timeouts)

    HttpResponse& header(const QByteArray& name, const QByteArray& value) {
        headers.append({name, value});
        return *this;
    }
    static HttpResponse json(const QByteArray& body, int status = 200);
    static HttpResponse text(int status, const QByteArray& body);
    // `data` as a file: a Range request gets 206 with Content-Range, else 200 with all of it.
    static HttpResponse file(const HttpRequest& request, const QByteArray& data, bool honourRange = true);
};

class LoopbackHttpServer : public QObject {
    Q_OBJECT
public:
    using Handler = std::function<HttpResponse(const HttpRequest&)>;

    explicit LoopbackHttpServer(QObject* parent = nullptr);
    bool listen();  // an ephemeral port on 127.0.0.1
    quint16 port() const { return server_.serverPort(); }
    QUrl url(const QString& pathAndQuery = QString()) const;
    void setHandler(Handler handler) { handler_ = std::move(handler); }
    const QList<HttpRequest>& requests() const { return requests_; }
    int countRequests(const QByteArray& pathPrefix) const;
    void clearRequests() { requests_.clear(); }

private:
    void onNewConnection();
    Handler handler_;
    QTcpServer server_;
    QList<HttpRequest> requests_;
};

}  // namespace hearth::test
