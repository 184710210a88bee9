// The main window: the first run (no models, no GPU) opens on the Welcome page and its button
// leads to the library; with a model it opens on the Library; Ctrl+N starts a new chat; the
// window state survives a restart; the language switches to Korean and back at run time.
#include <QAction>
#include <QListWidget>
#include <QPushButton>
#include <QtTest>

#include "ChatPage.h"
#include "LanguageManager.h"
#include "LibraryPage.h"
#include "MainWindow.h"
#include "UiTestEnv.h"
#include "chat/ChatStore.h"
#include "library/ModelLibrary.h"
#include "settings/AppSettings.h"

using namespace hearth;
using hearth::test::UiTestEnv;
using Id = ui::MainWindow::PageId;

class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
    void firstRunShowsWelcome();
    void opensOnTheLibraryOnceThereAreModels();
    void ctrlNStartsANewChat();
    void restoresWindowGeometry();
    void switchesLanguageAtRunTime();
};

void MainWindowTest::firstRunShowsWelcome() {
    UiTestEnv env;
    ui::MainWindow w(env.services());
    w.show();
    QCOMPARE(w.currentPage(), Id::Welcome);
    QTest::mouseClick(w.findChild<QPushButton*>("welcomeLibraryButton"), Qt::LeftButton);
    QCOMPARE(w.currentPage(), Id::Library);
}

void MainWindowTest::opensOnTheLibraryOnceThereAreModels() {
    UiTestEnv env;
    QVERIFY(env.services().library().addFile(UiTestEnv::modelPath()).ok());
    ui::MainWindow w(env.services());
    QCOMPARE(w.currentPage(), Id::Library);
}

void MainWindowTest::ctrlNStartsANewChat() {
    UiTestEnv env;
    ui::MainWindow w(env.services());
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QCOMPARE(env.services().chats().conversations().size(), 0);
    QTest::keyClick(&w, Qt::Key_N, Qt::ControlModifier);
    QCOMPARE(w.currentPage(), Id::Chat);
    QCOMPARE(env.services().chats().conversations().size(), 1);
    QCOMPARE(w.chatPage()->currentConversation(), env.services().chats().conversations().first().id);
}

void MainWindowTest::restoresWindowGeometry() {
    UiTestEnv env;
    {
        ui::MainWindow w(env.services());
        w.show();
        w.resize(1010, 707);
        QTest::qWait(50);
        w.close();
    }
    QVERIFY(!env.services().settings().windowGeometry().isEmpty());
    ui::MainWindow again(env.services());
    QCOMPARE(again.size(), QSize(1010, 707));
}

void MainWindowTest::switchesLanguageAtRunTime() {
    UiTestEnv env;
    ui::MainWindow w(env.services());
    w.show();
    auto* nav = w.findChild<QListWidget*>("navigation");
    QCOMPARE(nav->item(0)->text(), QString("Welcome"));
    auto* discover = w.findChild<QPushButton*>("welcomeDiscoverButton");
    const QString english = discover->text();
    QVERIFY(env.services().languages().setLanguage("ko").ok());
    QCoreApplication::processEvents();
    QVERIFY2(nav->item(0)->text() != "Welcome", qPrintable(nav->item(0)->text()));
    QVERIFY(discover->text() != english);
    // Korean text is Hangul, not a copy of the English.
    const QString korean = discover->text();
    QVERIFY(std::any_of(korean.begin(), korean.end(), [](QChar c) { return c.unicode() >= 0xAC00 && c.unicode() <= 0xD7A3; }));
    QCOMPARE(w.chatPage()->title(), QString::fromUtf8("대화"));
    QVERIFY(env.services().languages().setLanguage("en").ok());
    QCoreApplication::processEvents();
    QCOMPARE(nav->item(0)->text(), QString("Welcome"));
    QCOMPARE(discover->text(), english);
    QVERIFY(!env.services().languages().setLanguage("xx").ok());
}

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
