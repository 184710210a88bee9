#pragma once
// The first-run screen (shown while the library is empty): what Hearth is, and the two ways to
// get a model — Discover (download from the hub) or adding a GGUF file already on disk.

#include "Page.h"

class QLabel;
class QPushButton;

namespace hearth::ui {

class WelcomePage : public Page {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);
    QString title() const override;
    void retranslate() override;

signals:
    void discoverRequested();
    void addFileRequested();
    void libraryRequested();

private:
    QLabel* heading_ = nullptr;
    QLabel* body_ = nullptr;
    QLabel* gpuNote_ = nullptr;
    QPushButton* discover_ = nullptr;
    QPushButton* addFile_ = nullptr;
    QPushButton* library_ = nullptr;
};

}  // namespace hearth::ui
