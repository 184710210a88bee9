#include "UiTestEnv.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QTimer>
#include <QWidget>

#include "settings/AppSettings.h"

namespace hearth::test {

UiTestEnv::UiTestEnv(Gpus gpus, app::BackendFactory factory) {
    ui::DesktopServices::Options o;
    o.settingsFile = dir_.filePath("settings.ini");
    o.nvmlLibrary = gpus == Gpus::FakeTwo ? QString(HEARTH_FAKE_NVML) : QString("libnvidia-ml-not-here.so.1");
    o.startGpuMonitor = false;
    o.useKeychain = false;
    o.backendFactory = std::move(factory);
    services_ = std::make_unique<ui::DesktopServices>(o);
    (void)services_->settings().setDataFolder(dataDir());
    services_->open();
}

UiTestEnv::~UiTestEnv() = default;

QString UiTestEnv::modelPath(const QString& file) { return QString(HEARTH_SHARED_DIR) + "/models/" + file; }
QString UiTestEnv::sourcePath(const QString& relative) { return QString(HEARTH_SOURCE_DIR) + "/" + relative; }

void UiTestEnv::answerNextModal(std::function<void(QWidget*)> answer, int timeoutMs) {
    auto deadline = std::make_shared<QDeadlineTimer>(timeoutMs);
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, deadline, answer] {
        QWidget* modal = QApplication::activeModalWidget();
        if (modal && modal->isVisible()) {
            timer->stop();
            timer->deleteLater();
            answer(modal);
        } else if (deadline->hasExpired()) {
            timer->stop();
            timer->deleteLater();
        }
    });
    timer->start();
}

}  // namespace hearth::test
