#include "ServerPage.h"

#include <QApplication>
#include <QButtonGroup>
#include <QClipboard>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "KeyCreatedDialog.h"
#include "host/ServerController.h"
#include "settings/AppSettings.h"
#include "WidgetHelpers.h"

namespace hearth::ui {
namespace {
QTableWidget* makeTable(int columns, const char* name, QWidget* parent) {
    auto* t = new QTableWidget(0, columns, parent);
    t->setObjectName(name);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}
void setRow(QTableWidget* t, int row, const QStringList& cells) {
    for (int c = 0; c < cells.size(); ++c) t->setItem(row, c, new QTableWidgetItem(cells[c]));
}
QString when(qint64 ms) { return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat); }
}  // namespace

ServerPage::ServerPage(app::ServerController& server, app::AppSettings& settings, QWidget* parent)
    : Page(parent), server_(server), settings_(settings) {
    heading_ = makeHeading(this, 1.4);

    off_ = new QRadioButton(this);
    off_->setObjectName("serverOff");
    loopback_ = new QRadioButton(this);
    loopback_->setObjectName("serverLoopback");
    lan_ = new QRadioButton(this);
    lan_->setObjectName("serverLan");
    modes_ = new QButtonGroup(this);
    modes_->addButton(off_, int(app::ServerBindMode::Off));
    modes_->addButton(loopback_, int(app::ServerBindMode::Loopback));
    modes_->addButton(lan_, int(app::ServerBindMode::Lan));
    auto* modeRow = new QHBoxLayout;
    modeRow->addWidget(off_);
    modeRow->addWidget(loopback_);
    modeRow->addWidget(lan_);
    modeRow->addStretch();

    portLabel_ = new QLabel(this);
    port_ = new QSpinBox(this);
    port_->setObjectName("serverPort");
    port_->setRange(1, 65535);
    port_->setValue(settings_.serverPort());
    url_ = new QLabel(this);
    url_->setObjectName("serverUrl");
    url_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    copyUrl_ = new QPushButton(this);
    auto* urlRow = new QHBoxLayout;
    urlRow->addWidget(portLabel_);
    urlRow->addWidget(port_);
    urlRow->addSpacing(16);
    urlRow->addWidget(url_, 1);
    urlRow->addWidget(copyUrl_);

    message_ = new QLabel(this);
    message_->setObjectName("serverMessage");
    message_->setWordWrap(true);
    message_->hide();

    keysHeading_ = makeHeading(this, 1.0);
    keys_ = makeTable(3, "keysTable", this);
    createKey_ = new QPushButton(this);
    createKey_->setObjectName("createKeyButton");
    revokeKey_ = new QPushButton(this);
    revokeKey_->setObjectName("revokeKeyButton");
    auto* keyButtons = new QHBoxLayout;
    keyButtons->addStretch();
    keyButtons->addWidget(createKey_);
    keyButtons->addWidget(revokeKey_);

    clientsHeading_ = makeHeading(this, 1.0);
    clients_ = makeTable(4, "clientsTable", this);
    logHeading_ = makeHeading(this, 1.0);
    log_ = makeTable(8, "accessLogTable", this);

    corsLabel_ = new QLabel(this);
    cors_ = new QLineEdit(server_.corsOrigins().join(QStringLiteral(", ")), this);
    cors_->setObjectName("corsEdit");
    applyCors_ = new QPushButton(this);
    auto* corsRow = new QHBoxLayout;
    corsRow->addWidget(corsLabel_);
    corsRow->addWidget(cors_, 1);
    corsRow->addWidget(applyCors_);

    auto* grid = new QGridLayout;
    auto* keysBox = new QVBoxLayout;
    keysBox->addWidget(keysHeading_);
    keysBox->addWidget(keys_);
    keysBox->addLayout(keyButtons);
    auto* clientsBox = new QVBoxLayout;
    clientsBox->addWidget(clientsHeading_);
    clientsBox->addWidget(clients_);
    grid->addLayout(keysBox, 0, 0);
    grid->addLayout(clientsBox, 0, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addLayout(modeRow);
    layout->addLayout(urlRow);
    layout->addWidget(message_);
    layout->addLayout(grid);
    layout->addWidget(logHeading_);
    layout->addWidget(log_, 1);
    layout->addLayout(corsRow);

    connect(modes_, &QButtonGroup::idClicked, this, &ServerPage::selectMode);
    connect(port_, &QSpinBox::editingFinished, this, [this] {
        if (port_->value() == settings_.serverPort()) return;
        (void)settings_.setServerPort(port_->value());
        // A running server moves to the new port.
        const int mode = int(server_.mode());
        if (mode != int(app::ServerBindMode::Off)) {
            selectMode(int(app::ServerBindMode::Off));
            selectMode(mode);
        }
    });
    connect(copyUrl_, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(colleagueUrl()); });
    connect(createKey_, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("New API key"), tr("Who is this key for?"), QLineEdit::Normal,
                                                   QString(), &ok);
        if (ok) createKey(name, true);
    });
    connect(revokeKey_, &QPushButton::clicked, this, &ServerPage::revokeSelectedKey);
    connect(applyCors_, &QPushButton::clicked, this, [this] {
        const Status s = server_.setCorsOrigins(cors_->text().split(',', Qt::SkipEmptyParts));
        showMessage(s ? tr("Browser origins saved.") : QString::fromStdString(s.error().message), !s);
    });
    connect(&server_, &app::ServerController::modeChanged, this, &ServerPage::updateMode);
    connect(&server_, &app::ServerController::keysChanged, this, &ServerPage::refresh);
    timer_.setInterval(1000);
    connect(&timer_, &QTimer::timeout, this, [this] {
        if (isVisible()) refresh();
    });
    timer_.start();
    retranslate();
    refresh();
}

QString ServerPage::title() const { return tr("Server"); }

void ServerPage::retranslate() {
    heading_->setText(tr("Share the model with your colleagues"));
    off_->setText(tr("Off"));
    loopback_->setText(tr("This computer only"));
    lan_->setText(tr("Office network (LAN)"));
    portLabel_->setText(tr("Port:"));
    copyUrl_->setText(tr("Copy address"));
    keysHeading_->setText(tr("API keys"));
    keys_->setHorizontalHeaderLabels({tr("Name"), tr("Key id"), tr("Created")});
    createKey_->setText(tr("Create key…"));
    revokeKey_->setText(tr("Revoke"));
    clientsHeading_->setText(tr("Clients in the last 10 minutes"));
    clients_->setHorizontalHeaderLabels({tr("Address"), tr("Key"), tr("Requests"), tr("Last seen")});
    logHeading_->setText(tr("Access log"));
    log_->setHorizontalHeaderLabels({tr("Time"), tr("Key"), tr("Client"), tr("Request"), tr("Status"),
                                     tr("Prompt tokens"), tr("Reply tokens"), tr("Duration (ms)")});
    corsLabel_->setText(tr("Browser origins allowed (CORS):"));
    cors_->setPlaceholderText(tr("e.g. https://intranet.example.com, or * for any"));
    applyCors_->setText(tr("Apply"));
    updateMode();
}

QString ServerPage::message() const { return message_->isVisible() ? message_->text() : QString(); }

void ServerPage::showMessage(const QString& text, bool error) {
    message_->setText(text);
    message_->setStyleSheet(error ? QStringLiteral("color: #b3261e") : QString());
    message_->setVisible(!text.isEmpty());
}

QString ServerPage::colleagueUrl() const { return server_.mode() == app::ServerBindMode::Off ? QString() : server_.baseUrl(); }

bool ServerPage::selectMode(int mode) {
    const Status s = server_.setMode(app::ServerBindMode(mode));
    if (!s) {
        showMessage(app::ServerBindMode(mode) == app::ServerBindMode::Lan && server_.activeKeyCount() == 0
                        ? tr("Sharing on the network needs an API key, so that only people you gave a key can use "
                             "the model. Create a key first.")
                        : tr("The server could not start: %1").arg(QString::fromStdString(s.error().message)),
                    true);
        updateMode();
        return false;
    }
    showMessage(QString(), false);
    updateMode();
    return true;
}

void ServerPage::updateMode() {
    if (QAbstractButton* b = modes_->button(int(server_.mode()))) b->setChecked(true);
    switch (server_.mode()) {
        case app::ServerBindMode::Off: url_->setText(tr("The API is off.")); break;
        case app::ServerBindMode::Loopback:
            url_->setText(tr("Programs on this computer can use %1").arg(server_.baseUrl()));
            break;
        case app::ServerBindMode::Lan: url_->setText(tr("Give your colleagues: %1").arg(server_.baseUrl())); break;
    }
    copyUrl_->setEnabled(server_.mode() != app::ServerBindMode::Off);
    lan_->setToolTip(server_.activeKeyCount() == 0 ? tr("Needs an API key") : QString());
}

bool ServerPage::createKey(const QString& name, bool showDialog) {
    auto key = server_.createKey(name);
    if (!key) {
        showMessage(tr("Could not create the key: %1").arg(QString::fromStdString(key.error().message)), true);
        return false;
    }
    lastKey_ = *key;
    showMessage(QString(), false);
    if (showDialog) {
        KeyCreatedDialog dialog(name.trimmed(), *key, this);
        dialog.exec();
    }
    return true;
}

bool ServerPage::revokeSelectedKey() {
    const int row = keys_->currentRow();
    if (row < 0 || !keys_->item(row, 1)) return false;
    const Status s = server_.revokeKey(keys_->item(row, 1)->text());
    showMessage(s ? QString() : tr("Could not revoke the key: %1").arg(QString::fromStdString(s.error().message)), !s);
    return s.ok();
}

void ServerPage::refresh() {
    const auto keys = server_.keys(false);
    const QString selected = keys_->currentRow() >= 0 && keys_->item(keys_->currentRow(), 1)
                                 ? keys_->item(keys_->currentRow(), 1)->text()
                                 : QString();
    keys_->setRowCount(int(keys.size()));
    for (int i = 0; i < keys.size(); ++i) {
        setRow(keys_, i, {QString::fromStdString(keys[i].name), QString::fromStdString(keys[i].keyId), when(keys[i].createdAtMs)});
        if (QString::fromStdString(keys[i].keyId) == selected) keys_->selectRow(i);
    }
    revokeKey_->setEnabled(!keys.isEmpty());

    const auto clients = server_.recentClients();
    clients_->setRowCount(int(clients.size()));
    for (int i = 0; i < clients.size(); ++i)
        setRow(clients_, i, {clients[i].address, clients[i].keyName, QString::number(clients[i].requests),
                             QLocale().toString(clients[i].lastSeen, QLocale::ShortFormat)});

    const auto entries = server_.recentLog(200);
    log_->setRowCount(int(entries.size()));
    for (int i = 0; i < entries.size(); ++i) {
        const auto& e = entries[i];
        setRow(log_, i, {when(e.atMs), QString::fromStdString(e.keyName), QString::fromStdString(e.client),
                         QString::fromStdString(e.method + " " + e.path), QString::number(e.status),
                         QString::number(e.promptTokens), QString::number(e.completionTokens),
                         QString::number(qRound64(e.durationMs))});
    }
    updateMode();
}

}  // namespace hearth::ui
