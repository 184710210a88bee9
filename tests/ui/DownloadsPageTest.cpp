// The Downloads page over the real download queue and a slow loopback server: progress bar values,
// speed and time left while running, pause and resume (with a Range request), cancel, remove.
#include <QCryptographicHash>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "DownloadsModel.h"
#include "DownloadsPage.h"
#include "LoopbackHttpServer.h"
#include "UiTestEnv.h"
// DownloadManager.h keeps a QPointer<ModelLibrary>, which needs the complete type.
#include "library/ModelLibrary.h"
#include "downloads/DownloadManager.h"

using namespace hearth;
using hearth::test::HttpRequest;
using hearth::test::HttpResponse;
using hearth::test::LoopbackHttpServer;
using hearth::test::UiTestEnv;

class DownloadsPageTest : public QObject {
    Q_OBJECT
private slots:
    void showsProgressAndPausesAndResumes();
    void cancelsAndRemoves();
};

namespace {
QByteArray blob(int size) {
    QByteArray b(size, Qt::Uninitialized);
    for (int i = 0; i < size; ++i) b[i] = char((i * 131 + 7) & 0xff);
    return b;
}
app::DownloadRequest requestFor(LoopbackHttpServer& server, UiTestEnv& env, const QByteArray& data, const QString& name) {
    app::DownloadRequest r;
    r.url = server.url("/files/" + name);
    r.destination = env.tempPath("dl/" + name);
    r.expectedSize = data.size();
    r.expectedSha256 = QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
    r.repo = "test/files";
    r.repoPath = name;
    return r;
}
QPushButton* button(QWidget& page, const char* name) { return page.findChild<QPushButton*>(name); }
}  // namespace

void DownloadsPageTest::showsProgressAndPausesAndResumes() {
    const QByteArray data = blob(400 * 1024);
    LoopbackHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const HttpRequest& r) {
        HttpResponse res = HttpResponse::file(r, data);
        res.bytesPerTick = 8 * 1024;  // ~800 KiB/s: half a second for the whole file
        res.tickMs = 10;
        return res;
    });
    UiTestEnv env;
    ui::DownloadsPage page(env.services().downloads());
    page.show();
    QVERIFY(page.findChild<QLabel*>("downloadsEmpty")->isVisible());
    auto id = env.services().downloads().enqueue(requestFor(server, env, data, "weights.gguf"));
    QVERIFY(id.ok());
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 1, 2000);
    QVERIFY(!page.findChild<QLabel*>("downloadsEmpty")->isVisible());
    page.selectTask(*id);

    ui::DownloadsModel* m = page.model();
    auto cell = [&](int column, int role = Qt::DisplayRole) { return m->index(0, column).data(role); };
    QTRY_VERIFY_WITH_TIMEOUT(cell(0, ui::DownloadsModel::ProgressRole).toDouble() > 0.05, 5000);
    QCOMPARE(cell(ui::DownloadsModel::State).toString(), QString("Downloading"));
    QVERIFY(!cell(ui::DownloadsModel::Speed).toString().isEmpty());
    QVERIFY(cell(ui::DownloadsModel::Progress).toString().endsWith("%"));
    QVERIFY(button(page, "pauseDownloadButton")->isEnabled());
    QVERIFY(!button(page, "resumeDownloadButton")->isEnabled());

    QTest::mouseClick(button(page, "pauseDownloadButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(cell(ui::DownloadsModel::State).toString(), QString("Paused"), 5000);
    const double pausedAt = cell(0, ui::DownloadsModel::ProgressRole).toDouble();
    QVERIFY(pausedAt < 1.0);
    QVERIFY(button(page, "resumeDownloadButton")->isEnabled());

    server.clearRequests();
    QSignalSpy finished(&env.services().downloads(), &app::DownloadManager::taskFinished);
    QTest::mouseClick(button(page, "resumeDownloadButton"), Qt::LeftButton);
    QVERIFY(finished.wait(15000));
    QCOMPARE(cell(ui::DownloadsModel::State).toString(), QString("Done"));
    QCOMPARE(cell(0, ui::DownloadsModel::ProgressRole).toDouble(), 1.0);
    QVERIFY(server.requests().first().rangeStart().value_or(0) > 0);  // resumed, not restarted
    QFile f(env.tempPath("dl/weights.gguf"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), data);
    QVERIFY(button(page, "removeDownloadButton")->isEnabled());
    QVERIFY(!button(page, "cancelDownloadButton")->isEnabled());
}

void DownloadsPageTest::cancelsAndRemoves() {
    const QByteArray data = blob(2 * 1024 * 1024);
    LoopbackHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const HttpRequest& r) {
        HttpResponse res = HttpResponse::file(r, data);
        res.bytesPerTick = 4 * 1024;  // slow enough to cancel midway
        return res;
    });
    UiTestEnv env;
    ui::DownloadsPage page(env.services().downloads());
    page.show();
    auto id = env.services().downloads().enqueue(requestFor(server, env, data, "big.gguf"));
    QVERIFY(id.ok());
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 1, 2000);
    page.selectTask(*id);
    QTRY_VERIFY_WITH_TIMEOUT(page.model()->index(0, 0).data(ui::DownloadsModel::ProgressRole).toDouble() > 0, 5000);
    page.cancelSelected();
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->index(0, ui::DownloadsModel::State).data().toString(), QString("Cancelled"), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(env.tempPath("dl/big.gguf.part")), 5000);
    QVERIFY(!QFile::exists(env.tempPath("dl/big.gguf")));
    QVERIFY(button(page, "removeDownloadButton")->isEnabled());
    page.removeSelected();
    QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 0, 2000);
    QVERIFY(page.message().isEmpty());
    page.pauseSelected();  // nothing selected: a clear message, no crash
    QVERIFY(!page.message().isEmpty());
}

QTEST_MAIN(DownloadsPageTest)
#include "DownloadsPageTest.moc"
