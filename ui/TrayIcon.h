#pragma once
// The system-tray icon: Hearth's flame with a dot for the API server's state (grey off, blue
// this computer only, green shared on the LAN), a tooltip with the address, and a menu to show
// the window or quit. Where the desktop has no tray (or the offscreen platform), it is inert.

#include <QObject>
#include <QString>

#include "settings/ServerBindMode.h"

class QAction;
class QMenu;
class QSystemTrayIcon;

namespace hearth::ui {

class TrayIcon : public QObject {
    Q_OBJECT
public:
    explicit TrayIcon(QObject* parent = nullptr);
    ~TrayIcon() override;

    bool isShown() const;
    void setServerState(app::ServerBindMode mode, const QString& address);
    app::ServerBindMode serverState() const { return mode_; }
    QString toolTip() const;
    void retranslate();

signals:
    void showWindowRequested();
    void quitRequested();

private:
    QSystemTrayIcon* tray_ = nullptr;
    QMenu* menu_ = nullptr;
    QAction* show_ = nullptr;
    QAction* state_ = nullptr;
    QAction* quit_ = nullptr;
    app::ServerBindMode mode_ = app::ServerBindMode::Off;
    QString address_;
};

}  // namespace hearth::ui
