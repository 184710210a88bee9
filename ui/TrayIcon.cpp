#include "TrayIcon.h"

#include <QAction>
#include <QMenu>
#include <QSystemTrayIcon>

#include "AppIcon.h"

namespace hearth::ui {

TrayIcon::TrayIcon(QObject* parent) : QObject(parent) {
    menu_ = new QMenu;
    show_ = menu_->addAction(QString());
    state_ = menu_->addAction(QString());
    state_->setEnabled(false);
    menu_->addSeparator();
    quit_ = menu_->addAction(QString());
    connect(show_, &QAction::triggered, this, &TrayIcon::showWindowRequested);
    connect(quit_, &QAction::triggered, this, &TrayIcon::quitRequested);
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        tray_ = new QSystemTrayIcon(AppIcon::trayIcon(mode_), this);
        tray_->setContextMenu(menu_);
        connect(tray_, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason r) {
            if (r == QSystemTrayIcon::Trigger || r == QSystemTrayIcon::DoubleClick) emit showWindowRequested();
        });
        tray_->show();
    }
    retranslate();
}

TrayIcon::~TrayIcon() { delete menu_; }

bool TrayIcon::isShown() const { return tray_ && tray_->isVisible(); }

QString TrayIcon::toolTip() const {
    switch (mode_) {
        case app::ServerBindMode::Off: return tr("Hearth — server off");
        case app::ServerBindMode::Loopback: return tr("Hearth — server on this computer only (%1)").arg(address_);
        case app::ServerBindMode::Lan: return tr("Hearth — server shared on the network (%1)").arg(address_);
    }
    return tr("Hearth");
}

void TrayIcon::setServerState(app::ServerBindMode mode, const QString& address) {
    mode_ = mode;
    address_ = address;
    if (tray_) tray_->setIcon(AppIcon::trayIcon(mode));
    retranslate();
}

void TrayIcon::retranslate() {
    show_->setText(tr("Show Hearth"));
    quit_->setText(tr("Quit"));
    state_->setText(toolTip());
    if (tray_) tray_->setToolTip(toolTip());
}

}  // namespace hearth::ui
