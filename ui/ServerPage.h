#pragma once
// Server: the API switch (off -> this computer only -> the office network), the port, the address
// to give colleagues, API keys (create: shown once, copy; revoke), the clients seen recently and
// the access log, and the CORS origins for browser clients. The network setting is refused
// without a key. Refreshed every second while visible.

#include <QTimer>

#include "Page.h"

class QButtonGroup;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace hearth::app {
class AppSettings;
class ServerController;
}  // namespace hearth::app

namespace hearth::ui {

class ServerPage : public Page {
    Q_OBJECT
public:
    ServerPage(app::ServerController& server, app::AppSettings& settings, QWidget* parent = nullptr);
    QString title() const override;
    void retranslate() override;
    void activated() override { refresh(); }

    // What the controls do (tests drive these or the widgets).
    bool selectMode(int mode);  // app::ServerBindMode value; false (message shown) when refused
    // Creates a key and shows it once (showDialog false: tests read lastCreatedKey()).
    bool createKey(const QString& name, bool showDialog = true);
    bool revokeSelectedKey();
    void refresh();
    QString lastCreatedKey() const { return lastKey_; }
    QString message() const;
    QString colleagueUrl() const;

private:
    void updateMode();
    void showMessage(const QString& text, bool error);

    app::ServerController& server_;
    app::AppSettings& settings_;
    QTimer timer_;
    QString lastKey_;

    QLabel* heading_ = nullptr;
    QButtonGroup* modes_ = nullptr;
    QRadioButton* off_ = nullptr;
    QRadioButton* loopback_ = nullptr;
    QRadioButton* lan_ = nullptr;
    QLabel* portLabel_ = nullptr;
    QSpinBox* port_ = nullptr;
    QLabel* url_ = nullptr;
    QPushButton* copyUrl_ = nullptr;
    QLabel* message_ = nullptr;
    QLabel* keysHeading_ = nullptr;
    QTableWidget* keys_ = nullptr;
    QPushButton* createKey_ = nullptr;
    QPushButton* revokeKey_ = nullptr;
    QLabel* clientsHeading_ = nullptr;
    QTableWidget* clients_ = nullptr;
    QLabel* logHeading_ = nullptr;
    QTableWidget* log_ = nullptr;
    QLabel* corsLabel_ = nullptr;
    QLineEdit* cors_ = nullptr;
    QPushButton* applyCors_ = nullptr;
};

}  // namespace hearth::ui
