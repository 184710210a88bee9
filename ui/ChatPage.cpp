#include "ChatPage.h"

#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QTreeView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QVBoxLayout>

#include "ChatMessageWidget.h"
#include "ChatTranscriptView.h"
#include "ConversationListModel.h"
#include "ConversationSettingsDialog.h"
#include "chat/ChatStore.h"
#include "host/ChatRunner.h"
#include "host/ChatSampling.h"
#include "host/EngineHost.h"
#include "WidgetHelpers.h"

namespace hearth::ui {
namespace {
QString errorText(const Status& s) { return QString::fromStdString(s.error().message); }
}  // namespace

ChatPage::ChatPage(app::ChatStore& store, app::EngineHost& engine, QWidget* parent)
    : Page(parent), store_(store), engine_(engine) {
    runner_ = new app::ChatRunner(store_, engine_, this);
    list_ = new ConversationListModel(store_, *runner_, this);

    search_ = new QLineEdit(this);
    search_->setObjectName("chatSearch");
    search_->setClearButtonEnabled(true);
    listView_ = new QTreeView(this);
    listView_->setObjectName("conversationList");
    listView_->setModel(list_);
    listView_->setHeaderHidden(true);
    listView_->setRootIsDecorated(false);
    listView_->setTextElideMode(Qt::ElideRight);
    listView_->setSelectionMode(QAbstractItemView::SingleSelection);
    new_ = new QPushButton(this);
    new_->setObjectName("newChatButton");
    rename_ = new QPushButton(this);
    rename_->setObjectName("renameChatButton");
    delete_ = new QPushButton(this);
    delete_->setObjectName("deleteChatButton");
    auto* listButtons = new QHBoxLayout;
    listButtons->addWidget(new_);
    listButtons->addWidget(rename_);
    listButtons->addWidget(delete_);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(search_);
    leftLayout->addWidget(listView_, 1);
    leftLayout->addLayout(listButtons);

    heading_ = makeHeading(this, 1.3, "chatHeading");
    model_ = new QLabel(this);
    model_->setObjectName("chatModel");
    settings_ = new QPushButton(this);
    settings_->setObjectName("chatSettingsButton");
    auto* header = new QHBoxLayout;
    header->addWidget(heading_, 1);
    header->addWidget(model_);
    header->addWidget(settings_);

    transcript_ = new ChatTranscriptView(this);
    notice_ = new QLabel(this);
    notice_->setObjectName("chatNotice");
    notice_->setWordWrap(true);
    openLibrary_ = new QPushButton(this);
    openLibrary_->setObjectName("chatOpenLibrary");
    auto* noticeRow = new QHBoxLayout;
    noticeRow->addWidget(notice_, 1);
    noticeRow->addWidget(openLibrary_);
    editBanner_ = new QLabel(this);
    editBanner_->setObjectName("editBanner");
    cancelEdit_ = new QPushButton(this);
    auto* editRow = new QHBoxLayout;
    editRow->addWidget(editBanner_, 1);
    editRow->addWidget(cancelEdit_);

    input_ = new QPlainTextEdit(this);
    input_->setObjectName("chatInput");
    input_->setMaximumHeight(120);
    send_ = new QPushButton(this);
    send_->setObjectName("sendButton");
    send_->setDefault(true);
    stop_ = new QPushButton(this);
    stop_->setObjectName("stopButton");
    regenerate_ = new QPushButton(this);
    regenerate_->setObjectName("regenerateButton");
    auto* sendColumn = new QVBoxLayout;
    sendColumn->addWidget(send_);
    sendColumn->addWidget(stop_);
    sendColumn->addWidget(regenerate_);
    sendColumn->addStretch();
    auto* inputRow = new QHBoxLayout;
    inputRow->addWidget(input_, 1);
    inputRow->addLayout(sendColumn);

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(header);
    rightLayout->addWidget(transcript_, 1);
    rightLayout->addLayout(noticeRow);
    rightLayout->addLayout(editRow);
    rightLayout->addLayout(inputRow);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 4);
    splitter->setSizes({240, 900});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    // Ctrl+Enter sends (Enter alone is a new line), Esc stops the selected conversation's reply.
    for (const QKeySequence& key : {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* sc = new QShortcut(key, this);
        sc->setContext(Qt::WidgetWithChildrenShortcut);
        connect(sc, &QShortcut::activated, this, &ChatPage::send);
    }
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    esc->setContext(Qt::WidgetWithChildrenShortcut);
    connect(esc, &QShortcut::activated, this, [this] {
        if (runner_->isGenerating(current_))
            stop();
        else if (editingPosition_ >= 0)
            cancelEdit();
    });

    connect(new_, &QPushButton::clicked, this, &ChatPage::newConversation);
    connect(rename_, &QPushButton::clicked, this, [this] {
        auto c = store_.conversation(current_);
        if (!c) return;
        bool ok = false;
        const QString title = QInputDialog::getText(this, tr("Rename chat"), tr("Title:"), QLineEdit::Normal, c->title, &ok);
        if (ok) renameConversation(current_, title);
    });
    connect(delete_, &QPushButton::clicked, this, [this] { deleteConversation(current_, true); });
    connect(settings_, &QPushButton::clicked, this, &ChatPage::openSettings);
    connect(send_, &QPushButton::clicked, this, &ChatPage::send);
    connect(stop_, &QPushButton::clicked, this, &ChatPage::stop);
    connect(regenerate_, &QPushButton::clicked, this, &ChatPage::regenerate);
    connect(cancelEdit_, &QPushButton::clicked, this, &ChatPage::cancelEdit);
    connect(openLibrary_, &QPushButton::clicked, this, &ChatPage::libraryRequested);
    connect(transcript_, &ChatTranscriptView::editRequested, this, &ChatPage::beginEdit);
    connect(input_, &QPlainTextEdit::textChanged, this, &ChatPage::updateControls);
    connect(listView_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& index) {
                const QString id = list_->idAt(index.row());
                if (!id.isEmpty() && id != current_) selectConversation(id);
            });
    connect(list_, &QAbstractItemModel::modelReset, this, [this] {
        const int row = list_->rowOf(current_);
        if (row >= 0) listView_->setCurrentIndex(list_->index(row));
    });

    reloadTimer_.setSingleShot(true);
    reloadTimer_.setInterval(0);
    connect(&reloadTimer_, &QTimer::timeout, this, &ChatPage::reloadTranscript);
    liveTimer_.setSingleShot(true);
    liveTimer_.setInterval(50);  // about 20 re-renders a second while a reply streams
    connect(&liveTimer_, &QTimer::timeout, this, &ChatPage::showLive);
    searchTimer_.setSingleShot(true);
    searchTimer_.setInterval(200);
    connect(&searchTimer_, &QTimer::timeout, this, &ChatPage::runSearch);
    connect(search_, &QLineEdit::textChanged, this, [this] { searchTimer_.start(); });

    connect(&store_, &app::ChatStore::messagesChanged, this, [this](const QString& id) {
        if (id == current_) scheduleReload();
    });
    connect(&store_, &app::ChatStore::conversationChanged, this, [this](const QString& id) {
        if (id == current_) updateControls();
    });
    connect(&store_, &app::ChatStore::conversationRemoved, this, [this](const QString& id) {
        if (id == current_) selectConversation(list_->idAt(0));
    });
    connect(runner_, &app::ChatRunner::replyStarted, this, [this](const QString& id) {
        if (id == current_) scheduleReload();
        updateControls();
    });
    connect(runner_, &app::ChatRunner::replyUpdated, this, [this](const QString& id) {
        if (id == current_ && !liveTimer_.isActive()) liveTimer_.start();
    });
    connect(runner_, &app::ChatRunner::replyFinished, this, [this](const QString& id) {
        if (id == current_) scheduleReload();
        updateControls();
    });
    connect(runner_, &app::ChatRunner::replyFailed, this, [this](const QString& id, const QString& message) {
        if (id == current_) showNotice(tr("The reply failed: %1").arg(message));
    });
    connect(runner_, &app::ChatRunner::historyTrimmed, this, [this](const QString& id, int turns) {
        if (id == current_)
            showNotice(tr("The %n oldest message(s) no longer fit the model's context and were left out of this reply.",
                          nullptr, turns));
    });
    connect(&engine_, &app::EngineHost::stateChanged, this, &ChatPage::updateControls);

    retranslate();
    if (list_->rowCount() > 0) selectConversation(list_->idAt(0));
    updateControls();
}

ChatPage::~ChatPage() = default;

QString ChatPage::title() const { return tr("Chat"); }

void ChatPage::retranslate() {
    search_->setPlaceholderText(tr("Search chats"));
    new_->setText(tr("New"));
    new_->setToolTip(tr("New chat (Ctrl+N)"));
    rename_->setText(tr("Rename"));
    delete_->setText(tr("Delete"));
    settings_->setText(tr("Settings…"));
    settings_->setToolTip(tr("System prompt and sampling for this chat"));
    openLibrary_->setText(tr("Open the library"));
    cancelEdit_->setText(tr("Cancel edit"));
    input_->setPlaceholderText(tr("Write a message. Ctrl+Enter sends it."));
    send_->setText(tr("Send"));
    send_->setToolTip(tr("Send (Ctrl+Enter)"));
    stop_->setText(tr("Stop"));
    stop_->setToolTip(tr("Stop the reply (Esc)"));
    regenerate_->setText(tr("Regenerate"));
    list_->reload();
    updateControls();
}

QString ChatPage::notice() const { return notice_->isVisible() ? notice_->text() : QString(); }

void ChatPage::showNotice(const QString& text) {
    error_ = text;
    updateControls();
}

void ChatPage::updateControls() {
    const auto conversation = current_.isEmpty() ? std::nullopt : store_.conversation(current_);
    heading_->setText(conversation ? (conversation->title.isEmpty() ? tr("Untitled chat") : conversation->title)
                                   : tr("No chat selected"));
    const bool ready = engine_.isReady();
    const bool generating = runner_->isGenerating(current_);
    model_->setText(ready ? engine_.modelName() : QString());
    const bool hasText = !input_->toPlainText().trimmed().isEmpty();
    send_->setEnabled(ready && !generating && hasText && store_.isOpen());
    stop_->setEnabled(generating);
    regenerate_->setEnabled(ready && !generating && conversation && conversation->messageCount > 0);
    rename_->setEnabled(bool(conversation));
    delete_->setEnabled(bool(conversation));
    settings_->setEnabled(bool(conversation));
    new_->setEnabled(store_.isOpen());
    editBanner_->setVisible(editingPosition_ >= 0);
    cancelEdit_->setVisible(editingPosition_ >= 0);
    editBanner_->setText(tr("Editing a message: sending replaces it and every message after it."));
    openLibrary_->setVisible(!ready);
    QString state;
    if (!store_.isOpen())
        state = tr("The chat history could not be opened, so chats cannot be saved.");
    else if (engine_.state() == app::EngineHost::State::Loading)
        state = tr("A model is loading…");
    else if (!ready)
        state = tr("No model is loaded. Load one from the library to chat.");
    const QString text = error_.isEmpty() ? state : error_;
    notice_->setText(text);
    notice_->setVisible(!text.isEmpty());
}

QString ChatPage::newConversation() {
    auto created = store_.createConversation(tr("New chat"), engine_.modelName(), QString(), app::ChatSampling().toJson());
    if (!created) {
        showNotice(tr("Could not create a chat: %1").arg(QString::fromStdString(created.error().message)));
        return {};
    }
    search_->clear();
    list_->setFilter(std::nullopt);
    selectConversation(created->id);
    input_->setFocus();
    return created->id;
}

void ChatPage::selectConversation(const QString& id) {
    cancelEdit();
    current_ = id;
    const int row = list_->rowOf(id);
    if (row >= 0 && listView_->currentIndex().row() != row) listView_->setCurrentIndex(list_->index(row));
    reloadTranscript();
    updateControls();
}

bool ChatPage::renameConversation(const QString& id, const QString& title) {
    if (title.trimmed().isEmpty()) return false;
    if (Status s = store_.rename(id, title.trimmed()); !s) {
        showNotice(tr("Could not rename the chat: %1").arg(errorText(s)));
        return false;
    }
    return true;
}

void ChatPage::deleteConversation(const QString& id, bool askFirst) {
    auto c = store_.conversation(id);
    if (!c) return;
    if (askFirst &&
        QMessageBox::question(this, tr("Delete chat"), tr("Delete \"%1\" and all its messages?").arg(c->title),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return;
    runner_->stop(id);
    if (Status s = store_.remove(id); !s) showNotice(tr("Could not delete the chat: %1").arg(errorText(s)));
}

void ChatPage::send() {
    const QString text = input_->toPlainText().trimmed();
    if (text.isEmpty() || !engine_.isReady() || runner_->isGenerating(current_)) return;
    QString id = current_;
    if (id.isEmpty() && (id = newConversation()).isEmpty()) return;
    auto c = store_.conversation(id);
    const bool firstMessage = c && c->messageCount == 0;
    showNotice({});  // the runner may report something about this reply (history trimmed)
    const Status s = editingPosition_ >= 0 ? runner_->editAndResend(id, editingPosition_, text) : runner_->send(id, text);
    if (!s) {
        showNotice(tr("Could not send: %1").arg(errorText(s)));
        return;
    }
    if (firstMessage && c->title == tr("New chat")) (void)store_.rename(id, text.left(48).simplified());
    editingPosition_ = -1;
    input_->clear();
    updateControls();
}

void ChatPage::stop() { runner_->stop(current_); }

void ChatPage::regenerate() {
    showNotice({});
    if (Status s = runner_->regenerate(current_); !s) showNotice(tr("Could not regenerate: %1").arg(errorText(s)));
    updateControls();
}

void ChatPage::beginEdit(int position) {
    if (runner_->isGenerating(current_)) return;
    auto messages = store_.messages(current_);
    if (!messages || position < 0 || position >= messages->size()) return;
    editingPosition_ = position;
    input_->setPlainText((*messages)[position].content);
    input_->setFocus();
    updateControls();
}

void ChatPage::cancelEdit() {
    if (editingPosition_ < 0) return;
    editingPosition_ = -1;
    input_->clear();
    updateControls();
}

void ChatPage::setSearchText(const QString& text) {
    search_->setText(text);
    runSearch();
}

void ChatPage::runSearch() {
    searchTimer_.stop();
    const QString text = search_->text().trimmed();
    if (text.isEmpty()) {
        list_->setFilter(std::nullopt);
        return;
    }
    auto hits = store_.search(text);
    QSet<QString> ids;
    if (hits)
        for (const auto& h : *hits) ids.insert(h.conversationId);
    list_->setFilter(ids);
}

void ChatPage::openSettings() {
    auto c = store_.conversation(current_);
    if (!c) return;
    ConversationSettingsDialog dialog(c->systemPrompt, app::ChatSampling::fromJson(c->sampling), this);
    if (dialog.exec() != QDialog::Accepted) return;
    (void)store_.setSystemPrompt(c->id, dialog.systemPrompt());
    (void)store_.setSampling(c->id, dialog.sampling().toJson());
}

void ChatPage::scheduleReload() { reloadTimer_.start(); }

void ChatPage::reloadTranscript() {
    if (current_.isEmpty() || !store_.isOpen()) {
        transcript_->setMessages({}, QString());
        return;
    }
    auto messages = store_.messages(current_);
    if (!messages) {
        showNotice(tr("Could not read the chat: %1").arg(QString::fromStdString(messages.error().message)));
        return;
    }
    const app::LiveReply* live = runner_->live(current_);
    if (live)
        for (app::ChatMessage& m : *messages)
            if (m.id == live->messageId) {
                m.content = live->text;
                m.completionTokens = live->completionTokens;
                m.tokensPerSecond = live->tokensPerSecond();
            }
    transcript_->setMessages(*messages, live ? live->messageId : QString());
}

void ChatPage::showLive() {
    const app::LiveReply* live = runner_->live(current_);
    if (!live) return;
    ChatMessageWidget* w = transcript_->widgetFor(live->messageId);
    if (!w) return scheduleReload();
    app::ChatMessage m = w->message();
    m.content = live->text;
    m.completionTokens = live->completionTokens;
    m.tokensPerSecond = live->tokensPerSecond();
    transcript_->updateMessage(m, true);
}

}  // namespace hearth::ui
