#pragma once
// A throw-away desktop environment for the widget tests: a temporary data folder and settings
// file, the services on them (hub token in the settings file, no keychain), the GPU monitor on a
// missing NVML (CPU only, the normal first run) or on the fake two-GPU NVML, and helpers to wait
// for things and answer modal dialogs.

#include <QString>
#include <QTemporaryDir>
#include <functional>
#include <memory>

#include "DesktopServices.h"

class QWidget;

namespace hearth::test {

class UiTestEnv {
public:
    enum class Gpus { None, FakeTwo };
    explicit UiTestEnv(Gpus gpus = Gpus::None, app::BackendFactory factory = {});
    ~UiTestEnv();

    ui::DesktopServices& services() { return *services_; }
    QString dataDir() const { return dir_.path() + "/data"; }
    QString tempPath(const QString& name) const { return dir_.filePath(name); }

    static QString modelPath(const QString& file = "stories260K.gguf");
    static QString sourcePath(const QString& relative);

    // Runs `answer` on the next modal dialog or message box that opens (from a timer, since the
    // code under test blocks in exec()).
    static void answerNextModal(std::function<void(QWidget*)> answer, int timeoutMs = 5000);

private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::DesktopServices> services_;
};

}  // namespace hearth::test
