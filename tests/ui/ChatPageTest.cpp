// The chat page: a streamed reply from the real stories260K model into the chat view (Ctrl+Enter
// sends), and with a scripted backend: markdown rendering, Esc stops, regenerate, edit-and-
// resend, two chats generating at once, the prompt built through the chat template with the
// system prompt and sampling settings, rename / search / delete.
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTextBlock>
#include <QTextBrowser>
#include <QtTest>

#include "ChatMessageWidget.h"
#include "ChatPage.h"
#include "ChatTranscriptView.h"
#include "ConversationListModel.h"
#include "ScriptedBackend.h"
#include "UiTestEnv.h"
#include "chat/ChatStore.h"
#include "host/ChatRunner.h"
#include "host/ChatSampling.h"
#include "host/EngineHost.h"

using namespace hearth;
using hearth::test::ScriptedBackend;
using hearth::test::UiTestEnv;
using hearth::ui::ChatMessageWidget;

class ChatPageTest : public QObject {
    Q_OBJECT
private slots:
    void streamsARealReplyIntoTheView();
    void rendersMarkdownAndStopsWithEscape();
    void regenerateAndEditAndResend();
    void twoChatsGenerateAtOnce();
    void promptGoesThroughTheTemplate();
    void longConversationsDropTheOldestTurns();
    void renameSearchDelete();
    void saysWhenNoModelIsLoaded();
};

namespace {
void loadInto(app::EngineHost& host, const QString& path = UiTestEnv::modelPath()) {
    EngineConfig c;
    c.modelPath = path.toStdString();
    c.contextLength = 256;
    c.maxSeqs = 4;
    c.threads = 1;
    QSignalSpy loaded(&host, &app::EngineHost::loaded);
    QSignalSpy failed(&host, &app::EngineHost::loadFailed);
    QVERIFY(host.load(c).ok());
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() || !failed.isEmpty(), 30000);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first()[0].toString()));
}
QString bodyText(ChatMessageWidget* w) { return w->findChild<QTextBrowser*>("messageBody")->toPlainText(); }
QString footer(ChatMessageWidget* w) { return w->findChild<QLabel*>("messageFooter")->text(); }
// Shortcuts reach only an active window.
void showActive(QWidget& w) {
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
}
void typeAndSend(ui::ChatPage& page, const QString& text) {
    page.input()->setFocus();
    QTest::keyClicks(page.input(), text);
    QTest::keyClick(page.input(), Qt::Key_Return, Qt::ControlModifier);
}
}  // namespace

void ChatPageTest::streamsARealReplyIntoTheView() {
    UiTestEnv env;
    loadInto(env.services().engine());
    ui::ChatPage page(env.services().chats(), env.services().engine());
    page.resize(900, 700);
    showActive(page);
    const QString id = page.newConversation();
    app::ChatSampling sampling;
    sampling.maxTokens = 32;
    sampling.params.temperature = 0;
    QVERIFY(env.services().chats().setSampling(id, sampling.toJson()).ok());

    QSignalSpy updated(&page.runner(), &app::ChatRunner::replyUpdated);
    QSignalSpy finished(&page.runner(), &app::ChatRunner::replyFinished);
    typeAndSend(page, "Once upon a time");
    QVERIFY(page.runner().isGenerating(id));
    QVERIFY(page.input()->toPlainText().isEmpty());
    QVERIFY(finished.wait(30000));
    QVERIFY(updated.size() >= 2);  // streamed, not delivered in one piece
    QTRY_COMPARE_WITH_TIMEOUT(page.transcript()->messageWidgets().size(), 2, 2000);
    ChatMessageWidget* user = page.transcript()->messageWidgets()[0];
    ChatMessageWidget* reply = page.transcript()->messageWidgets()[1];
    QCOMPARE(bodyText(user), QString("Once upon a time"));
    QTRY_VERIFY_WITH_TIMEOUT(!bodyText(reply).trimmed().isEmpty() && !bodyText(reply).contains(QChar(0x258D)), 2000);
    QVERIFY2(footer(reply).contains("tok/s") && footer(reply).contains("tokens"), qPrintable(footer(reply)));

    auto stored = env.services().chats().messages(id);
    QVERIFY(stored.ok());
    QCOMPARE(stored->size(), 2);
    const app::ChatMessage& m = stored->at(1);
    QCOMPARE(m.role, QString("assistant"));
    QCOMPARE(m.content.trimmed(), bodyText(reply).trimmed());
    QVERIFY(m.completionTokens > 1 && m.completionTokens <= 32);
    QVERIFY(m.promptTokens > 4);
    QVERIFY(m.tokensPerSecond > 0);
    QVERIFY(m.finishReason == "stop" || m.finishReason == "length");
    // The conversation was titled after its first message.
    QCOMPARE(env.services().chats().conversation(id)->title, QString("Once upon a time"));
}

void ChatPageTest::rendersMarkdownAndStopsWithEscape() {
    std::vector<std::string> pieces = {"Here is **bold** and `code`.\n\n", "- one\n", "- two\n"};
    for (int i = 0; i < 300; ++i) pieces.push_back(" more");
    UiTestEnv env(UiTestEnv::Gpus::None, hearth::test::scriptedFactory(pieces, 5, 1, 1));
    loadInto(env.services().engine(), "scripted.gguf");
    ui::ChatPage page(env.services().chats(), env.services().engine());
    showActive(page);
    const QString id = page.newConversation();
    typeAndSend(page, "hello");
    QTRY_VERIFY_WITH_TIMEOUT(page.transcript()->messageWidgets().size() == 2 &&
                                 bodyText(page.transcript()->messageWidgets()[1]).contains("two"),
                             5000);
    ChatMessageWidget* reply = page.transcript()->messageWidgets()[1];
    const QString text = bodyText(reply);
    QVERIFY2(text.contains("Here is bold and code.") && !text.contains("**"), qPrintable(text));
    // The bold run is a bold fragment of the document, and the list is a list.
    QTextDocument* doc = reply->findChild<QTextBrowser*>("messageBody")->document();
    bool sawBold = false, sawList = false;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        sawList |= b.textList() != nullptr;
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().text() == "bold") sawBold = it.fragment().charFormat().fontWeight() >= QFont::Bold;
    }
    QVERIFY(sawBold);
    QVERIFY(sawList);
    QVERIFY(page.findChild<QPushButton*>("stopButton")->isEnabled());
    QTest::keyClick(page.input(), Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(!page.runner().isGenerating(id), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(footer(page.transcript()->messageWidgets()[1]).contains("stopped"), 2000);
    auto stored = env.services().chats().messages(id);
    QCOMPARE(stored->at(1).finishReason, QString("cancelled"));
    QVERIFY(stored->at(1).completionTokens < int(pieces.size()));
}

void ChatPageTest::regenerateAndEditAndResend() {
    UiTestEnv env(UiTestEnv::Gpus::None, hearth::test::scriptedFactory({"Hi", " there"}, 2, 1, 1));
    loadInto(env.services().engine(), "scripted.gguf");
    ui::ChatPage page(env.services().chats(), env.services().engine());
    showActive(page);
    const QString id = page.newConversation();
    QSignalSpy finished(&page.runner(), &app::ChatRunner::replyFinished);
    typeAndSend(page, "first question");
    QVERIFY(finished.wait(5000));
    typeAndSend(page, "second question");
    QVERIFY(finished.wait(5000));
    QCOMPARE(env.services().chats().messages(id)->size(), 4);
    const QString oldReply = env.services().chats().messages(id)->at(3).id;

    QTest::mouseClick(page.findChild<QPushButton*>("regenerateButton"), Qt::LeftButton);
    QVERIFY(finished.wait(5000));
    auto after = *env.services().chats().messages(id);
    QCOMPARE(after.size(), 4);
    QVERIFY(after[3].id != oldReply);
    QCOMPARE(after[3].content, QString("Hi there"));

    // Edit the first question: it and everything after it are replaced.
    QTRY_COMPARE_WITH_TIMEOUT(page.transcript()->messageWidgets().size(), 4, 2000);
    auto* edit = page.transcript()->messageWidgets()[0]->findChild<QAbstractButton*>("editMessageButton");
    QTest::mouseClick(edit, Qt::LeftButton);
    QCOMPARE(page.input()->toPlainText(), QString("first question"));
    QVERIFY(page.findChild<QLabel*>("editBanner")->isVisible());
    page.input()->setPlainText("a better first question");
    QTest::mouseClick(page.findChild<QPushButton*>("sendButton"), Qt::LeftButton);
    QVERIFY(finished.wait(5000));
    after = *env.services().chats().messages(id);
    QCOMPARE(after.size(), 2);
    QCOMPARE(after[0].content, QString("a better first question"));
    QCOMPARE(after[1].role, QString("assistant"));
    QVERIFY(!page.findChild<QLabel*>("editBanner")->isVisible());
}

void ChatPageTest::twoChatsGenerateAtOnce() {
    UiTestEnv env(UiTestEnv::Gpus::None,
                  hearth::test::scriptedFactory(std::vector<std::string>(40, "w "), 10, 1, 1));
    loadInto(env.services().engine(), "scripted.gguf");
    ui::ChatPage page(env.services().chats(), env.services().engine());
    showActive(page);
    const QString a = page.newConversation();
    typeAndSend(page, "one");
    const QString b = page.newConversation();
    typeAndSend(page, "two");
    QVERIFY(page.runner().isGenerating(a));
    QVERIFY(page.runner().isGenerating(b));
    QCOMPARE(page.runner().generatingCount(), 2);
    // The list marks both; the view shows only b's reply growing.
    QVERIFY(page.conversations()->index(page.conversations()->rowOf(a)).data().toString().startsWith("●"));
    QTRY_VERIFY_WITH_TIMEOUT(page.runner().generatingCount() == 0, 10000);
    QCOMPARE(env.services().chats().messages(a)->at(1).content, QString("w ").repeated(40));
    QCOMPARE(env.services().chats().messages(b)->at(1).content, QString("w ").repeated(40));
    page.selectConversation(a);
    QCOMPARE(bodyText(page.transcript()->messageWidgets()[0]), QString("one"));
}

void ChatPageTest::promptGoesThroughTheTemplate() {
    ScriptedBackend* backend = nullptr;
    UiTestEnv env(UiTestEnv::Gpus::None, hearth::test::scriptedFactory({"ok"}, 1, 1, 1, &backend));
    loadInto(env.services().engine(), "scripted.gguf");
    ui::ChatPage page(env.services().chats(), env.services().engine());
    showActive(page);
    const QString id = page.newConversation();
    QVERIFY(env.services().chats().setSystemPrompt(id, "You are terse.").ok());
    app::ChatSampling s;
    s.params.temperature = 0.25f;
    s.maxTokens = 77;
    QVERIFY(env.services().chats().setSampling(id, s.toJson()).ok());
    QSignalSpy finished(&page.runner(), &app::ChatRunner::replyFinished);
    typeAndSend(page, "hello there");
    QVERIFY(finished.wait(5000));
    const GenerationRequest r = backend->lastRequest();
    const QString prompt = QString::fromStdString(backend->tokenizer()->decode(r.promptTokens, true));
    // The model has no template, so the built-in transcript format is used.
    QVERIFY2(prompt.contains("You are terse.") && prompt.contains("hello there") && prompt.trimmed().endsWith("Assistant:"),
             qPrintable(prompt));
    QVERIFY(prompt.indexOf("You are terse.") < prompt.indexOf("hello there"));
    QCOMPARE(r.stopTokens, backend->tokenizer()->endOfGeneration());
    QVERIFY(!r.stopTokens.empty());
    QCOMPARE(r.maxTokens, 77);
    QCOMPARE(r.sampling.temperature, 0.25f);
    QCOMPARE(QString::fromStdString(r.user), id);
}

void ChatPageTest::longConversationsDropTheOldestTurns() {
    ScriptedBackend* backend = nullptr;
    UiTestEnv env(UiTestEnv::Gpus::None, hearth::test::scriptedFactory({"ok"}, 1, 1, 1, &backend));
    loadInto(env.services().engine(), "scripted.gguf");  // a 512-token context
    ui::ChatPage page(env.services().chats(), env.services().engine());
    showActive(page);
    const QString id = page.newConversation();
    app::ChatSampling s;
    s.maxTokens = 64;
    QVERIFY(env.services().chats().setSampling(id, s.toJson()).ok());
    QSignalSpy finished(&page.runner(), &app::ChatRunner::replyFinished);
    QSignalSpy trimmed(&page.runner(), &app::ChatRunner::historyTrimmed);
    const QString filler = QString("the little cat sat on the warm mat and looked at the sun ").repeated(8);
    for (const char* marker : {"alpha", "bravo", "charlie", "delta"}) {
        page.input()->setPlainText(QString(marker) + " " + filler);
        page.send();
        QVERIFY(finished.wait(5000));
    }
    const GenerationRequest r = backend->lastRequest();
    const QString prompt = QString::fromStdString(backend->tokenizer()->decode(r.promptTokens, true));
    QVERIFY2(int(r.promptTokens.size()) + 64 <= 512, qPrintable(QString::number(r.promptTokens.size())));
    QVERIFY(prompt.contains("delta"));
    QVERIFY(!prompt.contains("alpha"));
    QVERIFY(r.maxTokens <= 64 && r.maxTokens > 0);
    QVERIFY(!trimmed.isEmpty());
    QVERIFY2(page.notice().contains("left out"), qPrintable(page.notice()));
    QCOMPARE(env.services().chats().messages(id)->size(), 8);  // the stored chat keeps everything
}

void ChatPageTest::renameSearchDelete() {
    UiTestEnv env(UiTestEnv::Gpus::None, hearth::test::scriptedFactory({"blue whales"}, 1, 1, 1));
    loadInto(env.services().engine(), "scripted.gguf");
    ui::ChatPage page(env.services().chats(), env.services().engine());
    showActive(page);
    QSignalSpy finished(&page.runner(), &app::ChatRunner::replyFinished);
    const QString a = page.newConversation();
    typeAndSend(page, "tell me about the ocean");
    QVERIFY(finished.wait(5000));
    const QString b = page.newConversation();
    QVERIFY(page.renameConversation(b, "Groceries"));
    QCOMPARE(env.services().chats().conversation(b)->title, QString("Groceries"));
    QCOMPARE(page.conversations()->rowCount(), 2);

    page.setSearchText("whales");
    QCOMPARE(page.conversations()->rowCount(), 1);
    QCOMPARE(page.conversations()->idAt(0), a);
    page.setSearchText("");
    QCOMPARE(page.conversations()->rowCount(), 2);

    UiTestEnv::answerNextModal([](QWidget* box) {
        static_cast<QMessageBox*>(box)->button(QMessageBox::No)->click();
    });
    page.deleteConversation(a);
    QCOMPARE(page.conversations()->rowCount(), 2);
    UiTestEnv::answerNextModal([](QWidget* box) {
        static_cast<QMessageBox*>(box)->button(QMessageBox::Yes)->click();
    });
    page.selectConversation(a);
    QTest::mouseClick(page.findChild<QPushButton*>("deleteChatButton"), Qt::LeftButton);
    QCOMPARE(page.conversations()->rowCount(), 1);
    QVERIFY(!env.services().chats().conversation(a));
    QCOMPARE(page.currentConversation(), b);
}

void ChatPageTest::saysWhenNoModelIsLoaded() {
    UiTestEnv env;
    ui::ChatPage page(env.services().chats(), env.services().engine());
    showActive(page);
    page.newConversation();
    QTest::keyClicks(page.input(), "hello");
    QVERIFY(!page.findChild<QPushButton*>("sendButton")->isEnabled());
    QVERIFY2(page.notice().contains("No model is loaded"), qPrintable(page.notice()));
    QVERIFY(page.findChild<QPushButton*>("chatOpenLibrary")->isVisible());
    QTest::keyClick(page.input(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(env.services().chats().messages(page.currentConversation())->size(), 0);
}

QTEST_MAIN(ChatPageTest)
#include "ChatPageTest.moc"
