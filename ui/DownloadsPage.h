#pragma once
// Downloads: the queue with progress bars, speed and time left, and pause / resume / cancel /
// remove for the selected entry. The queue itself (resume after restart, verification, retries)
// is the DownloadManager's; finished models appear in the Library.

#include "Page.h"
#include "hearth/result.h"

class QLabel;
class QPushButton;
class QTableView;

namespace hearth::app {
class DownloadManager;
}

namespace hearth::ui {

class DownloadsModel;

class DownloadsPage : public Page {
    Q_OBJECT
public:
    explicit DownloadsPage(app::DownloadManager& manager, QWidget* parent = nullptr);
    QString title() const override;
    void retranslate() override;

    DownloadsModel* model() const { return model_; }
    void selectTask(qint64 id);
    qint64 selectedId() const;
    // What the buttons do, for the selected task.
    void pauseSelected();
    void resumeSelected();
    void cancelSelected();
    void removeSelected();
    QString message() const;

private:
    void updateButtons();
    void report(const Status& s);

    app::DownloadManager& manager_;
    DownloadsModel* model_ = nullptr;
    QLabel* heading_ = nullptr;
    QLabel* empty_ = nullptr;
    QLabel* message_ = nullptr;
    QTableView* table_ = nullptr;
    QPushButton* pause_ = nullptr;
    QPushButton* resume_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* remove_ = nullptr;
};

}  // namespace hearth::ui
