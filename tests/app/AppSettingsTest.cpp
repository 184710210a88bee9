// AppSettings and TokenStore on a real INI file in a temporary folder.
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "settings/AppSettings.h"
#include "settings/TokenStore.h"

using namespace hearth::app;

class AppSettingsTest : public QObject {
    Q_OBJECT
private slots:
    void defaultsWhenEmpty();
    void valuesPersistAcrossInstances();
    void badValuesAreRejected();
    void malformedStoredValuesFallBackToDefaults();
    void tokenInSettingsFileWarns();
    void tokenAutoModeRoundTrips();
    void tokenWithSpacesRejected();

private:
    QTemporaryDir dir_;
    QString ini(const QString& name) { return dir_.filePath(name); }
};

void AppSettingsTest::defaultsWhenEmpty() {
    AppSettings s(ini("defaults.ini"));
    QCOMPARE(s.hubBaseUrl(), QUrl("https://huggingface.co"));
    QCOMPARE(s.serverPort(), 8080);
    QCOMPARE(s.serverBindMode(), ServerBindMode::Off);
    QCOMPARE(s.language(), QString("en"));
    QVERIFY(QDir::isAbsolutePath(s.dataFolder()));
    QCOMPARE(s.modelsFolder(), s.dataFolder() + "/models");
    QCOMPARE(s.downloadFolder(), s.modelsFolder());
    QVERIFY(s.windowGeometry().isEmpty());
}

void AppSettingsTest::valuesPersistAcrossInstances() {
    const QString path = ini("persist.ini");
    {
        AppSettings s(path);
        QSignalSpy changed(&s, &AppSettings::changed);
        QVERIFY(s.setHubBaseUrl(QUrl("http://127.0.0.1:4567/")).ok());
        QVERIFY(s.setModelsFolder(dir_.filePath("models")).ok());
        QVERIFY(s.setDownloadFolder(dir_.filePath("dl")).ok());
        QVERIFY(s.setServerPort(9123).ok());
        s.setServerBindMode(ServerBindMode::Lan);
        QVERIFY(s.setLanguage("ko").ok());
        s.setWindowGeometry(QByteArray("\x01\x02geometry", 10));
        s.setWindowState("state-blob");
        QCOMPARE(changed.count(), 8);
        QCOMPARE(changed.first().first().toString(), QString(AppSettings::kHubBaseUrl));
        s.setServerPort(9123).ok();  // unchanged value: no signal
        QCOMPARE(changed.count(), 8);
    }
    AppSettings again(path);
    QCOMPARE(again.hubBaseUrl(), QUrl("http://127.0.0.1:4567"));  // trailing slash dropped
    QCOMPARE(again.modelsFolder(), dir_.filePath("models"));
    QCOMPARE(again.downloadFolder(), dir_.filePath("dl"));
    QCOMPARE(again.serverPort(), 9123);
    QCOMPARE(again.serverBindMode(), ServerBindMode::Lan);
    QCOMPARE(again.language(), QString("ko"));
    QCOMPARE(again.windowGeometry(), QByteArray("\x01\x02geometry", 10));
    QCOMPARE(again.windowState(), QByteArray("state-blob"));
}

void AppSettingsTest::badValuesAreRejected() {
    AppSettings s(ini("bad.ini"));
    QVERIFY(!s.setHubBaseUrl(QUrl("ftp://example.org")).ok());
    QVERIFY(!s.setHubBaseUrl(QUrl("not a url")).ok());
    QVERIFY(!s.setServerPort(0).ok());
    QVERIFY(!s.setServerPort(70000).ok());
    QVERIFY(!s.setLanguage("xx").ok());
    QVERIFY(!s.setModelsFolder("relative/path").ok());
    QCOMPARE(s.hubBaseUrl(), QUrl("https://huggingface.co"));
    QCOMPARE(s.serverPort(), 8080);
}

void AppSettingsTest::malformedStoredValuesFallBackToDefaults() {
    const QString path = ini("malformed.ini");
    {
        QSettings raw(path, QSettings::IniFormat);
        raw.setValue(AppSettings::kHubBaseUrl, "gopher://x");
        raw.setValue(AppSettings::kServerPort, "eighty");
        raw.setValue(AppSettings::kServerBindMode, "everywhere");
        raw.setValue(AppSettings::kLanguage, "tlh");
    }
    AppSettings s(path);
    QCOMPARE(s.hubBaseUrl(), QUrl("https://huggingface.co"));
    QCOMPARE(s.serverPort(), 8080);
    QCOMPARE(s.serverBindMode(), ServerBindMode::Off);
    QCOMPARE(s.language(), QString("en"));
}

void AppSettingsTest::tokenInSettingsFileWarns() {
    const QString path = ini("token.ini");
    {
        AppSettings s(path);
        TokenStore tokens(s, TokenStore::Mode::SettingsOnly);
        tokens.load();
        QCOMPARE(tokens.storage(), TokenStore::Storage::None);
        QVERIFY(tokens.warning().isEmpty());
        QVERIFY(tokens.setToken("  hf_abcdef123  ").ok());
        QCOMPARE(tokens.token(), QString("hf_abcdef123"));
        QCOMPARE(tokens.storage(), TokenStore::Storage::SettingsFile);
        QVERIFY(tokens.warning().contains("unencrypted"));
    }
    {
        AppSettings s(path);
        TokenStore tokens(s, TokenStore::Mode::SettingsOnly);
        tokens.load();
        QCOMPARE(tokens.token(), QString("hf_abcdef123"));
        QVERIFY(tokens.clear().ok());
    }
    QSettings raw(path, QSettings::IniFormat);
    QVERIFY(!raw.contains(TokenStore::kSettingsKey));
}

void AppSettingsTest::tokenAutoModeRoundTrips() {
    // Whether or not a keychain answers here (CI has no D-Bus session), Auto mode must keep the
    // token and say where it is; it must not hang.
    AppSettings s(ini("auto.ini"));
    TokenStore tokens(s, TokenStore::Mode::Auto);
    tokens.setKeychainTimeoutMs(2000);
    QElapsedTimer t;
    t.start();
    QVERIFY(tokens.setToken("hf_roundtrip").ok());
    TokenStore again(s, TokenStore::Mode::Auto);
    again.setKeychainTimeoutMs(2000);
    again.load();
    QCOMPARE(again.token(), QString("hf_roundtrip"));
    QVERIFY(again.storage() != TokenStore::Storage::None);
    QCOMPARE(again.storage() == TokenStore::Storage::SettingsFile, !again.warning().isEmpty());
    QVERIFY(tokens.clear().ok());
    QVERIFY2(t.elapsed() < 15000, "keychain calls must time out");
}

void AppSettingsTest::tokenWithSpacesRejected() {
    AppSettings s(ini("spaces.ini"));
    TokenStore tokens(s, TokenStore::Mode::SettingsOnly);
    QVERIFY(!tokens.setToken("hf_a b").ok());
    QVERIFY(!tokens.setToken("hf_a\nb").ok());
    QVERIFY(tokens.token().isEmpty());
}

QTEST_GUILESS_MAIN(AppSettingsTest)
#include "AppSettingsTest.moc"
