#pragma once
// Chat: the conversations of the chat store (list, search, new, rename, delete) and the selected
// one's transcript with streaming replies rendered as markdown; send (Ctrl+Enter), stop (Esc),
// regenerate, edit-and-resend; a system prompt and sampling settings per conversation; token
// counts and tokens/s under each reply. Replies of several conversations can stream at once
// (ChatRunner keeps them apart); the page shows the selected one.
//
// Invariants: current_ is empty or the id of a conversation in the store; the transcript shows
// current_'s stored messages with the live reply's text in place of its stored text.

#include <QTimer>

#include "Page.h"

class QLabel;
class QLineEdit;
class QTreeView;
class QPlainTextEdit;
class QPushButton;

namespace hearth::app {
class ChatRunner;
class ChatStore;
class EngineHost;
}  // namespace hearth::app

namespace hearth::ui {

class ChatTranscriptView;
class ConversationListModel;

class ChatPage : public Page {
    Q_OBJECT
public:
    ChatPage(app::ChatStore& store, app::EngineHost& engine, QWidget* parent = nullptr);
    ~ChatPage() override;

    QString title() const override;
    void retranslate() override;

    // What the buttons and shortcuts do (tests drive these or the widgets).
    QString newConversation();
    void selectConversation(const QString& id);
    QString currentConversation() const { return current_; }
    bool renameConversation(const QString& id, const QString& title);
    void deleteConversation(const QString& id, bool askFirst = true);
    void send();
    void stop();
    void regenerate();
    void beginEdit(int position);
    void cancelEdit();
    void setSearchText(const QString& text);
    void openSettings();

    app::ChatRunner& runner() const { return *runner_; }
    ChatTranscriptView* transcript() const { return transcript_; }
    QPlainTextEdit* input() const { return input_; }
    ConversationListModel* conversations() const { return list_; }
    QString notice() const;

signals:
    void libraryRequested();

private:
    void reloadTranscript();
    void scheduleReload();
    void showLive();
    void updateControls();
    void showNotice(const QString& text);  // an error; empty clears it
    void runSearch();

    app::ChatStore& store_;
    app::EngineHost& engine_;
    app::ChatRunner* runner_ = nullptr;
    ConversationListModel* list_ = nullptr;
    QString current_;
    int editingPosition_ = -1;
    QString error_;  // the last action's failure, shown until the next action succeeds
    QTimer reloadTimer_;
    QTimer liveTimer_;
    QTimer searchTimer_;

    QLineEdit* search_ = nullptr;
    QTreeView* listView_ = nullptr;
    QPushButton* new_ = nullptr;
    QPushButton* rename_ = nullptr;
    QPushButton* delete_ = nullptr;
    QLabel* heading_ = nullptr;
    QLabel* model_ = nullptr;
    QPushButton* settings_ = nullptr;
    ChatTranscriptView* transcript_ = nullptr;
    QLabel* notice_ = nullptr;
    QPushButton* openLibrary_ = nullptr;
    QLabel* editBanner_ = nullptr;
    QPushButton* cancelEdit_ = nullptr;
    QPlainTextEdit* input_ = nullptr;
    QPushButton* send_ = nullptr;
    QPushButton* stop_ = nullptr;
    QPushButton* regenerate_ = nullptr;
};

}  // namespace hearth::ui
