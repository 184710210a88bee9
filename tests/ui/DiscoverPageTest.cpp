// The Discover page against a hub served on loopback (recorded hub JSON from tests/app/data/hub,
// and a small repo that holds the real stories260K.gguf): search with the gguf filter and sort,
// files grouped by quantization with "fits" for the chosen GPUs and context, a gated repo asking
// for a token, and a download that ends in the library.
#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include "DiscoverPage.h"
#include "FitTargetBar.h"
#include "HubSearchModel.h"
#include "HubVariantTree.h"
#include "LoopbackHttpServer.h"
#include "UiTestEnv.h"
// DownloadManager.h keeps a QPointer<ModelLibrary>, which needs the complete type.
#include "library/ModelLibrary.h"
#include "downloads/DownloadManager.h"
#include "gpu/GpuMonitor.h"
#include "settings/AppSettings.h"

using namespace hearth;
using hearth::test::HttpRequest;
using hearth::test::HttpResponse;
using hearth::test::LoopbackHttpServer;
using hearth::test::UiTestEnv;

class DiscoverPageTest : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void searchSendsFilterAndSort();
    void groupsFilesByQuantizationWithFit();
    void gatedRepoAsksForAToken();
    void downloadLandsInTheLibrary();

private:
    static QByteArray fixture(const QString& name);
    std::unique_ptr<LoopbackHttpServer> hub_;
    QByteArray stories_;
};

QByteArray DiscoverPageTest::fixture(const QString& name) {
    QFile f(UiTestEnv::sourcePath("tests/app/data/hub/" + name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

void DiscoverPageTest::init() {
    QFile model(UiTestEnv::modelPath());
    QVERIFY(model.open(QIODevice::ReadOnly));
    stories_ = model.readAll();
    const QString sha = QCryptographicHash::hash(stories_, QCryptographicHash::Sha256).toHex();
    const QJsonArray storiesTree{
        QJsonObject{{"type", "file"}, {"path", "README.md"}, {"size", 12}, {"oid", "abc"}},
        QJsonObject{{"type", "file"},
                    {"path", "stories260K-F32.gguf"},
                    {"size", double(stories_.size())},
                    {"oid", "0123"},
                    {"lfs", QJsonObject{{"oid", sha}, {"size", double(stories_.size())}, {"pointerSize", 130}}}}};
    const QByteArray tree = QJsonDocument(storiesTree).toJson();

    hub_ = std::make_unique<LoopbackHttpServer>();
    QVERIFY(hub_->listen());
    hub_->setHandler([this, tree](const HttpRequest& r) {
        const QByteArray path = r.path();
        if (path == "/api/models") return HttpResponse::json(fixture("search-llama-gguf.json"));
        if (path == "/api/models/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF/tree/main")
            return HttpResponse::json(fixture("tree-llama-3.1-8b-instruct.json"));
        if (path == "/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json")
            return HttpResponse::json(fixture("config-llama-3.1-8b-instruct.json"));
        if (path.startsWith("/api/models/meta-llama/")) return HttpResponse::json(fixture("error-gated.json"), 401);
        if (path == "/api/models/test/stories-GGUF/tree/main") return HttpResponse::json(tree);
        if (path == "/test/stories-GGUF/resolve/main/stories260K-F32.gguf") return HttpResponse::file(r, stories_);
        return HttpResponse::text(404, "not found");
    });
}

void DiscoverPageTest::cleanup() { hub_.reset(); }

void DiscoverPageTest::searchSendsFilterAndSort() {
    UiTestEnv env;
    QVERIFY(env.services().settings().setHubBaseUrl(hub_->url()).ok());
    ui::DiscoverPage page(env.services().hub(), env.services().downloads(), env.services().gpus(),
                          env.services().settings());
    page.show();
    QTest::keyClicks(page.findChild<QLineEdit*>("hubQuery"), "llama 8b");
    auto* sort = page.findChild<QComboBox*>("hubSort");
    sort->setCurrentIndex(1);  // most liked
    QTest::mouseClick(page.findChild<QPushButton*>("hubSearchButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(page.results()->rowCount(), 5, 5000);
    QCOMPARE(page.results()->index(0, ui::HubSearchModel::Model).data().toString(),
             QString("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF"));
    QCOMPARE(page.results()->index(0, ui::HubSearchModel::Downloads).data().toString(), QString("183k"));
    const QUrl first(QString::fromLatin1(hub_->requests().last().target));
    const QUrlQuery q(first);
    QCOMPARE(q.queryItemValue("search", QUrl::FullyDecoded), QString("llama 8b"));
    QCOMPARE(q.queryItemValue("filter"), QString("gguf"));
    QCOMPARE(q.queryItemValue("sort"), QString("likes"));
    QVERIFY(page.status().contains("5"));

    page.findChild<QCheckBox*>("hubGgufOnly")->setChecked(false);
    hub_->clearRequests();
    page.search();
    QTRY_COMPARE_WITH_TIMEOUT(hub_->requests().size(), 1, 5000);
    QVERIFY(!QUrlQuery(QUrl(QString::fromLatin1(hub_->requests().last().target))).hasQueryItem("filter"));
}

void DiscoverPageTest::groupsFilesByQuantizationWithFit() {
    UiTestEnv env(UiTestEnv::Gpus::FakeTwo);
    QVERIFY(env.services().settings().setHubBaseUrl(hub_->url()).ok());
    QSignalSpy snap(&env.services().gpus(), &app::GpuMonitor::updated);
    env.services().gpus().pollNow();
    QVERIFY(snap.wait(5000));
    ui::DiscoverPage page(env.services().hub(), env.services().downloads(), env.services().gpus(),
                          env.services().settings());
    page.show();
    page.search();
    QTRY_COMPARE_WITH_TIMEOUT(page.results()->rowCount(), 5, 5000);
    // Choosing the result opens it; the GGUF repo has no config.json, its base model has.
    page.findChild<QTableView*>("hubResults")->selectRow(0);
    QCOMPARE(page.openRepoId(), QString("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF"));
    QTRY_COMPARE_WITH_TIMEOUT(page.variants()->topLevelItemCount(), 8, 5000);
    // config.json arrives too: the fits are then computed, not guessed.
    QTRY_VERIFY_WITH_TIMEOUT(!page.variants()->estimates().isEmpty() && !page.variants()->estimates()[0].approximate, 5000);
    int q4 = -1, f16 = -1;
    for (int i = 0; i < page.variants()->groups().size(); ++i) {
        if (page.variants()->groups()[i].quant == "Q4_K_M") q4 = i;
        if (page.variants()->groups()[i].quant.compare("F16", Qt::CaseInsensitive) == 0) f16 = i;
    }
    QVERIFY(q4 >= 0 && f16 >= 0);
    QVERIFY(page.variants()->groups()[f16].split);
    QVERIFY(page.variants()->topLevelItem(f16)->text(ui::HubVariantTree::Variant).contains("2 parts"));
    QCOMPARE(page.variants()->topLevelItem(f16)->childCount(), 2);
    QVERIFY(page.variants()->estimates()[q4].fits);
    QVERIFY(page.variants()->estimates()[f16].fits);  // 16 GB on 30 GiB of two GPUs at 8k context

    // Only the 24 GB GPU, 32k context: KV grows to 4 GiB and F16 no longer fits; Q4_K_M still does.
    page.findChild<QCheckBox*>("fitGpu1")->setChecked(false);
    page.fitBar()->setContextLength(32768);
    QVERIFY(page.variants()->estimates()[q4].fits);
    QVERIFY(!page.variants()->estimates()[f16].fits);
    QCOMPARE(page.variants()->estimates()[q4].kvBytes, qint64(32768) * 131072);
    QVERIFY(page.variants()->topLevelItem(f16)->text(ui::HubVariantTree::Fits).startsWith("no"));
    QVERIFY(page.variants()->topLevelItem(q4)->text(ui::HubVariantTree::Fits).startsWith("yes"));
}

void DiscoverPageTest::gatedRepoAsksForAToken() {
    UiTestEnv env;
    QVERIFY(env.services().settings().setHubBaseUrl(hub_->url()).ok());
    ui::DiscoverPage page(env.services().hub(), env.services().downloads(), env.services().gpus(),
                          env.services().settings());
    page.show();
    QSignalSpy settings(&page, &ui::DiscoverPage::settingsRequested);
    page.openRepo("meta-llama/Llama-3.1-8B-Instruct");
    QTRY_VERIFY_WITH_TIMEOUT(page.status().contains("token"), 5000);
    auto* tokenButton = page.findChild<QPushButton*>("hubTokenButton");
    QVERIFY(tokenButton->isVisible());
    QTest::mouseClick(tokenButton, Qt::LeftButton);
    QCOMPARE(settings.size(), 1);
    QCOMPARE(page.variants()->topLevelItemCount(), 0);
}

void DiscoverPageTest::downloadLandsInTheLibrary() {
    UiTestEnv env;
    QVERIFY(env.services().settings().setHubBaseUrl(hub_->url()).ok());
    QVERIFY(env.services().settings().setDownloadFolder(env.tempPath("downloads")).ok());
    ui::DiscoverPage page(env.services().hub(), env.services().downloads(), env.services().gpus(),
                          env.services().settings());
    page.show();
    page.openRepo("test/stories-GGUF");
    QTRY_COMPARE_WITH_TIMEOUT(page.variants()->topLevelItemCount(), 1, 5000);
    auto* download = page.findChild<QPushButton*>("hubDownloadButton");
    QVERIFY(!download->isEnabled());  // nothing selected yet
    page.variants()->selectGroup(0);
    QVERIFY(download->isEnabled());
    QSignalSpy queued(&page, &ui::DiscoverPage::downloadsQueued);
    QSignalSpy finished(&env.services().downloads(), &app::DownloadManager::taskFinished);
    QTest::mouseClick(download, Qt::LeftButton);
    QCOMPARE(queued.size(), 1);
    QVERIFY(finished.wait(15000));
    const QString path = finished.first()[1].toString();
    QCOMPARE(path, env.tempPath("downloads") + "/test/stories-GGUF/stories260K-F32.gguf");
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.size(), qint64(stories_.size()));
    QTRY_VERIFY_WITH_TIMEOUT(env.services().library().findByPath(path).has_value(), 5000);
    const auto record = *env.services().library().findByPath(path);
    QCOMPARE(record.originRepo, QString("test/stories-GGUF"));
    QCOMPARE(record.architecture, QString("llama"));
}

QTEST_MAIN(DiscoverPageTest)
#include "DiscoverPageTest.moc"
