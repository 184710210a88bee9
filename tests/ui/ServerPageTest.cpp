// The Server page over the real API server: the network mode is refused without a key; this
// computer only serves /v1/models for the loaded stories260K; a created key (shown once) opens
// the LAN mode, where requests need it; the access log and the client list fill in; revoking the
// last key turns the network mode off; the tray icon follows the state.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTcpServer>
#include <QtTest>

#include "MainWindow.h"
#include "ServerPage.h"
#include "TrayIcon.h"
#include "UiTestEnv.h"
#include "host/EngineHost.h"
#include "host/ServerController.h"
#include "settings/AppSettings.h"

using namespace hearth;
using hearth::test::UiTestEnv;

class ServerPageTest : public QObject {
    Q_OBJECT
private slots:
    void lanNeedsAKey();
    void servesModelsOnLoopbackAndLanWithKeys();
};

namespace {
int freePort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}
struct Reply {
    int status = 0;
    QJsonObject json;
};
Reply get(const QString& url, const QString& key = {}) {
    QNetworkAccessManager nam;
    QNetworkRequest req{QUrl(url)};
    if (!key.isEmpty()) req.setRawHeader("Authorization", "Bearer " + key.toUtf8());
    QNetworkReply* r = nam.get(req);
    QSignalSpy done(r, &QNetworkReply::finished);
    done.wait(10000);
    Reply out;
    out.status = r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.json = QJsonDocument::fromJson(r->readAll()).object();
    r->deleteLater();
    return out;
}
void loadStories(app::EngineHost& host) {
    EngineConfig c;
    c.modelPath = UiTestEnv::modelPath().toStdString();
    c.contextLength = 256;
    c.maxSeqs = 2;
    QSignalSpy loaded(&host, &app::EngineHost::loaded);
    QVERIFY(host.load(c).ok());
    QVERIFY(loaded.wait(30000));
}
}  // namespace

void ServerPageTest::lanNeedsAKey() {
    UiTestEnv env;
    ui::ServerPage page(env.services().server(), env.services().settings());
    page.show();
    QVERIFY(page.findChild<QRadioButton*>("serverOff")->isChecked());
    QTest::mouseClick(page.findChild<QRadioButton*>("serverLan"), Qt::LeftButton);
    QCOMPARE(env.services().server().mode(), app::ServerBindMode::Off);
    QVERIFY(page.findChild<QRadioButton*>("serverOff")->isChecked());
    QVERIFY2(page.message().contains("API key"), qPrintable(page.message()));
    QVERIFY(page.colleagueUrl().isEmpty());
}

void ServerPageTest::servesModelsOnLoopbackAndLanWithKeys() {
    UiTestEnv env;
    const int port = freePort();
    QVERIFY(env.services().settings().setServerPort(port).ok());
    loadStories(env.services().engine());
    ui::MainWindow window(env.services());
    ui::ServerPage& page = *window.serverPage();
    window.showPage(ui::MainWindow::PageId::Server);
    window.show();

    QTest::mouseClick(page.findChild<QRadioButton*>("serverLoopback"), Qt::LeftButton);
    QCOMPARE(env.services().server().mode(), app::ServerBindMode::Loopback);
    QCOMPARE(window.tray()->serverState(), app::ServerBindMode::Loopback);
    QCOMPARE(page.colleagueUrl(), QString("http://127.0.0.1:%1/v1").arg(port));
    Reply models = get(page.colleagueUrl() + "/models");
    QCOMPARE(models.status, 200);
    const QJsonArray data = models.json.value("data").toArray();
    QCOMPARE(data.size(), 1);
    QCOMPARE(data[0].toObject().value("id").toString(), QString("stories260K"));

    // A key opens the network mode; it is shown once and has the documented shape.
    QVERIFY(page.createKey("alice", false));
    const QString key = page.lastCreatedKey();
    QVERIFY2(key.startsWith("hk_") && key.size() > 40, qPrintable(key));
    QTRY_COMPARE_WITH_TIMEOUT(page.findChild<QTableWidget*>("keysTable")->rowCount(), 1, 3000);
    QVERIFY(page.selectMode(int(app::ServerBindMode::Lan)));
    QCOMPARE(window.tray()->serverState(), app::ServerBindMode::Lan);
    const QString local = QString("http://127.0.0.1:%1/v1/models").arg(port);
    QCOMPARE(get(local).status, 401);
    QCOMPARE(get(local, "hk_00000000_" + QString(48, 'a')).status, 401);
    QCOMPARE(get(local, key).status, 200);

    // The access log and the client list show those requests.
    auto* log = page.findChild<QTableWidget*>("accessLogTable");
    QTRY_VERIFY_WITH_TIMEOUT((page.refresh(), log->rowCount() >= 4), 5000);
    bool sawAlice = false;
    for (int r = 0; r < log->rowCount(); ++r) sawAlice |= log->item(r, 1)->text() == "alice" && log->item(r, 4)->text() == "200";
    QVERIFY(sawAlice);
    QVERIFY(page.findChild<QTableWidget*>("clientsTable")->rowCount() >= 1);

    // Revoking the last key closes the network mode.
    auto* keys = page.findChild<QTableWidget*>("keysTable");
    keys->selectRow(0);
    QVERIFY(page.revokeSelectedKey());
    QCOMPARE(env.services().server().mode(), app::ServerBindMode::Off);
    QVERIFY(page.findChild<QRadioButton*>("serverOff")->isChecked());
    QCOMPARE(window.tray()->serverState(), app::ServerBindMode::Off);
    QCOMPARE(get(local, key).status, 0);  // nothing listens any more
}

QTEST_MAIN(ServerPageTest)
#include "ServerPageTest.moc"
