#include "downloads/DownloadTransfer.h"

#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTimer>
#include <QtConcurrent/QtConcurrent>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "AppVersion.h"
#include "core/FileHasher.h"

namespace hearth::app {
namespace {

QString authorityOf(const QUrl& url) { return QString("%1:%2").arg(url.host()).arg(url.port(url.scheme() == "https" ? 443 : 80)); }

bool isRedirect(int status) { return status == 301 || status == 302 || status == 303 || status == 307 || status == 308; }

// "bytes 100-199/1000" -> (100, 1000); total -1 when "*".
bool parseContentRange(const QByteArray& header, qint64* start, qint64* total) {
    static const QRegularExpression re(R"(^\s*bytes\s+(\d+)-(\d+)/(\d+|\*)\s*$)");
    const auto m = re.match(QString::fromLatin1(header));
    if (!m.hasMatch()) return false;
    *start = m.captured(1).toLongLong();
    *total = m.captured(3) == "*" ? -1 : m.captured(3).toLongLong();
    return true;
}

}  // namespace

DownloadTransfer::DownloadTransfer(DownloadTask task, quint64 run, RetryPolicy policy, QString tokenAuthority,
                                   QString token, QNetworkAccessManager* network, QObject* parent)
    : QObject(parent),
      task_(std::move(task)),
      run_(run),
      policy_(policy),
      tokenAuthority_(std::move(tokenAuthority)),
      token_(std::move(token)),
      network_(network),
      hash_(std::make_shared<QCryptographicHash>(QCryptographicHash::Sha256)),
      rehashCancel_(std::make_shared<std::atomic<bool>>(false)) {}

DownloadTransfer::~DownloadTransfer() {
    rehashCancel_->store(true);
    dropReply();
}

void DownloadTransfer::dropReply() {
    if (!reply_) return;
    QNetworkReply* r = reply_.data();
    reply_ = nullptr;
    r->disconnect(this);
    r->abort();
    r->deleteLater();
}

void DownloadTransfer::start() {
    clock_.start();
    sinceProgress_.start();
    const QFileInfo dest(task_.request.destination);
    if (!QDir().mkpath(dest.absolutePath()))
        return fail(tr("cannot create the folder %1").arg(dest.absolutePath()));
    part_.setFileName(task_.partPath());
    if (!part_.open(QIODevice::ReadWrite | QIODevice::Append))
        return fail(tr("cannot open %1: %2").arg(part_.fileName(), part_.errorString()));
    const qint64 existing = part_.size();
    const qint64 expected = task_.request.expectedSize;
    if (existing > 0 && expected >= 0 && existing > expected) {
        // Longer than the file can be: not ours to trust.
        if (auto s = restartFromZero(); !s) return fail(QString::fromStdString(s.error().message));
        return sendRequest(task_.request.url, 0);
    }
    if (existing <= 0) return sendRequest(task_.request.url, 0);
    // Resume: the hash must cover the bytes already on disk, so read them again (off this thread:
    // a multi-gigabyte .part takes seconds and the worker serves other downloads meanwhile).
    auto hash = hash_;
    auto cancel = rehashCancel_;
    const QString path = part_.fileName();
    rehash_ = new QFutureWatcher<Status>(this);
    connect(rehash_, &QFutureWatcher<Status>::finished, this, [this, existing] {
        const Status s = rehash_->result();
        if (s) offset_ = existing;
        onRehashed(s);
    });
    rehash_->setFuture(QtConcurrent::run([hash, cancel, path, existing] {
        return FileHasher::addFile(*hash, path, existing, cancel.get());
    }));
}

void DownloadTransfer::onRehashed(const Status& status) {
    if (done_) return;
    if (!status) {
        if (status.error().code == ErrorCode::Cancelled) return;
        if (auto s = restartFromZero(); !s) return fail(QString::fromStdString(s.error().message));
    }
    reportProgress(true);
    if (task_.request.expectedSize >= 0 && offset_ == task_.request.expectedSize) return verifyAndComplete();
    sendRequest(task_.request.url, 0);
}

Status DownloadTransfer::restartFromZero() {
    // A character device (a test's /dev/full) cannot be truncated and holds nothing to drop.
    if (part_.size() > 0 && !part_.resize(0))
        return makeError(ErrorCode::IoError,
                         tr("cannot truncate %1: %2").arg(part_.fileName(), part_.errorString()).toStdString());
    hash_->reset();
    offset_ = 0;
    total_ = -1;
    samples_.clear();
    return Status::success();
}

void DownloadTransfer::sendRequest(const QUrl& url, int redirects) {
    if (done_) return;
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::UserAgentHeader, QString("Hearth/%1").arg(versionString()));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setTransferTimeout(policy_.transferTimeoutMs);
    // Byte ranges count stored bytes: no transparent compression.
    request.setRawHeader("Accept-Encoding", "identity");
    if (offset_ > 0) request.setRawHeader("Range", "bytes=" + QByteArray::number(offset_) + "-");
    if (!token_.isEmpty() && authorityOf(url) == tokenAuthority_)
        request.setRawHeader("Authorization", "Bearer " + token_.toUtf8());
    requestOffset_ = offset_;
    headersChecked_ = false;
    samples_ = {{clock_.elapsed(), offset_}};  // speed counts this request's bytes only
    abortReason_.clear();
    reply_ = network_->get(request);
    reply_->setReadBufferSize(4 << 20);  // back-pressure when the disk is slower than the network
    connect(reply_, &QNetworkReply::readyRead, this, &DownloadTransfer::onReadyRead);
    connect(reply_, &QNetworkReply::finished, this, [this, redirects] { onFinished(redirects); });
    // No sslErrors handler: QNetworkAccessManager then fails the request on any TLS error.
}

bool DownloadTransfer::checkHeaders() {
    if (headersChecked_) return true;
    const int status = reply_->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0 || isRedirect(status) || status >= 300) return false;  // handled in onFinished
    headersChecked_ = true;
    const qint64 length = reply_->header(QNetworkRequest::ContentLengthHeader).isValid()
                              ? reply_->header(QNetworkRequest::ContentLengthHeader).toLongLong()
                              : -1;
    if (status == 206) {
        qint64 start = -1, total = -1;
        if (!parseContentRange(reply_->rawHeader("Content-Range"), &start, &total) || start != requestOffset_) {
            abortReason_ = tr("the server answered the range request with the wrong bytes");
            abortFromZero_ = true;
            reply_->abort();
            return false;
        }
        total_ = total;
    } else {  // 200: the whole file from byte 0, whatever we asked for
        if (offset_ > 0) {
            if (auto s = restartFromZero(); !s) {
                abortReason_ = QString::fromStdString(s.error().message);
                reply_->abort();
                return false;
            }
        }
        total_ = length;
    }
    // The hub's listing is the authority on size; a server that says otherwise is caught by the
    // overflow check while reading and by the size and hash checks at the end.
    if (task_.request.expectedSize >= 0) total_ = task_.request.expectedSize;
    return true;
}

bool DownloadTransfer::writeChunk(const QByteArray& data) {
    if (part_.write(data) != data.size() || !part_.flush()) {
        const QString why = part_.errorString();
        fail(tr("writing %1 failed: %2. The partial file is kept: free some space, then resume.")
                 .arg(part_.fileName(), why));
        return false;
    }
    return true;
}

void DownloadTransfer::onReadyRead() {
    if (!reply_ || done_ || !checkHeaders()) return;
    const QByteArray data = reply_->readAll();
    if (data.isEmpty()) return;
    const qint64 limit = task_.request.expectedSize;
    if (limit >= 0 && offset_ + data.size() > limit) {
        abortReason_ = tr("the server sent more than the %1 bytes the file has").arg(limit);
        abortFromZero_ = true;
        reply_->abort();
        return;
    }
    if (!writeChunk(data)) return;
    hash_->addData(data);
    offset_ += data.size();
    reportProgress(false);
}

void DownloadTransfer::onFinished(int redirects) {
    if (!reply_ || done_) return;
    QNetworkReply* reply = reply_.data();
    reply_ = nullptr;
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (isRedirect(status)) {
        const QUrl next = reply->url().resolved(reply->header(QNetworkRequest::LocationHeader).toUrl());
        if (!next.isValid() || redirects >= kMaxRedirects)
            return fail(tr("too many or bad redirects from %1").arg(task_.request.url.toString()));
        if (reply->url().scheme() == "https" && next.scheme() != "https")
            return fail(tr("refusing a redirect from https to %1").arg(next.toString()));
        return sendRequest(next, redirects + 1);
    }
    if (headersChecked_ && reply->bytesAvailable() > 0) {
        reply_ = reply;  // read what is left before judging the end
        onReadyRead();
        reply_ = nullptr;
        if (done_) return;
    }
    if (!abortReason_.isEmpty()) {
        const bool fromZero = abortFromZero_;
        abortFromZero_ = false;
        return retryOrFail(abortReason_, fromZero);
    }
    const QNetworkReply::NetworkError error = reply->error();
    if (status == 416) {
        if (task_.request.expectedSize >= 0 && offset_ == task_.request.expectedSize) return verifyAndComplete();
        return retryOrFail(tr("the server refused to resume at byte %1").arg(offset_), true);
    }
    if (status >= 500 || status == 429) return retryOrFail(tr("HTTP %1 from the server").arg(status), false);
    if (status >= 400) {
        const QString hint = status == 401 || status == 403 ? tr(" (gated or private repo: set an access token)") : QString();
        return fail(tr("HTTP %1: %2%3").arg(status).arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString(), hint));
    }
    if (error == QNetworkReply::SslHandshakeFailedError || error == QNetworkReply::InsecureRedirectError)
        return fail(tr("TLS verification failed for %1: %2").arg(reply->url().host(), reply->errorString()));
    if (error != QNetworkReply::NoError) {
        const bool timeout = error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError;
        return retryOrFail(timeout ? tr("no data for %1 s").arg(policy_.transferTimeoutMs / 1000.0) : reply->errorString(),
                           false);
    }
    if (total_ >= 0 && offset_ < total_)
        return retryOrFail(tr("the connection closed at byte %1 of %2").arg(offset_).arg(total_), false);
    verifyAndComplete();
}

void DownloadTransfer::retryOrFail(const QString& why, bool fromZero) {
    if (done_) return;
    if (attempt_ >= policy_.maxAttempts) return fail(tr("%1 (gave up after %2 attempts)").arg(why).arg(attempt_));
    ++attempt_;
    if (fromZero) {
        if (auto s = restartFromZero(); !s) return fail(QString::fromStdString(s.error().message));
    }
    const int delay = policy_.delayBeforeAttempt(attempt_);
    emit retrying(task_.id, run_, attempt_, delay, why);
    reportProgress(true);
    QTimer::singleShot(delay, this, [this] { sendRequest(task_.request.url, 0); });
}

void DownloadTransfer::verifyAndComplete() {
    const qint64 expected = task_.request.expectedSize;
    if (expected >= 0 && offset_ != expected)
        return retryOrFail(tr("got %1 bytes, the file has %2").arg(offset_).arg(expected), offset_ > expected);
    const QString sha = QString::fromLatin1(hash_->result().toHex());
    const QString want = task_.request.expectedSha256.toLower();
    if (!want.isEmpty() && sha != want)
        return retryOrFail(tr("SHA-256 mismatch: expected %1, got %2").arg(want, sha), true);
    if (!part_.flush() || ::fsync(part_.handle()) != 0)
        return fail(tr("cannot flush %1: %2").arg(part_.fileName(), part_.errorString()));
    part_.close();
    // rename(2) replaces the destination atomically: a reader sees the old file or the new one.
    const QByteArray from = QFile::encodeName(task_.partPath());
    const QByteArray to = QFile::encodeName(task_.request.destination);
    if (std::rename(from.constData(), to.constData()) != 0)
        return fail(tr("cannot move %1 into place: %2").arg(task_.partPath(), QString::fromLocal8Bit(std::strerror(errno))));
    reportProgress(true);
    done_ = true;
    emit completed(task_.id, run_, sha);
}

void DownloadTransfer::fail(const QString& error) {
    if (done_) return;
    done_ = true;
    dropReply();
    if (part_.isOpen()) part_.close();
    emit failed(task_.id, run_, error);
}

void DownloadTransfer::pause() {
    if (done_) return;
    done_ = true;
    rehashCancel_->store(true);
    dropReply();
    if (part_.isOpen()) {
        part_.flush();
        part_.close();
    }
    emit paused(task_.id, run_, offset_);
}

void DownloadTransfer::cancel() {
    if (done_) return;
    done_ = true;
    rehashCancel_->store(true);
    dropReply();
    if (part_.isOpen()) part_.close();
    QFile::remove(task_.partPath());
    emit cancelled(task_.id, run_);
}

void DownloadTransfer::reportProgress(bool force) {
    if (!force && sinceProgress_.elapsed() < 200) return;
    sinceProgress_.restart();
    const qint64 now = clock_.elapsed();
    samples_.append({now, offset_});
    while (samples_.size() > 2 && now - samples_.first().first > 3000) samples_.removeFirst();
    double speed = 0;
    if (samples_.size() >= 2 && now > samples_.first().first)
        speed = double(offset_ - samples_.first().second) * 1000.0 / double(now - samples_.first().first);
    emit progress(task_.id, run_, offset_, total_, std::max(0.0, speed), attempt_);
}

}  // namespace hearth::app
