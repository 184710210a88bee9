#pragma once
// Discover: search the hub for GGUF models (text, sort by downloads / likes / trending / recent,
// GGUF only), open a repository to see its files grouped by quantization with whether each fits
// the chosen GPUs (or RAM) for the chosen context and users, and download a variant (all parts of
// a split one) into the download queue. Gated repositories ask for the access token in Settings.
//
// Invariants: repo_ is the repository whose files are shown; answers for an older search or
// repository are dropped (searchSerial_, repoSerial_); GUI thread only.

#include <QJsonObject>

#include "Page.h"
#include "hub/QuantGroup.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace hearth::app {
class AppSettings;
class DownloadManager;
class GpuMonitor;
class HubClient;
struct HubError;
}  // namespace hearth::app

namespace hearth::ui {

class FitTargetBar;
class HubSearchModel;
class HubVariantTree;

class DiscoverPage : public Page {
    Q_OBJECT
public:
    DiscoverPage(app::HubClient& hub, app::DownloadManager& downloads, app::GpuMonitor& gpus,
                 app::AppSettings& settings, QWidget* parent = nullptr);

    QString title() const override;
    void retranslate() override;
    void activated() override;

    void setQuery(const QString& text);
    void search();
    void openRepo(const QString& repo);
    // Queues every file of variant `groupIndex` of the open repository; false with a message
    // shown when that is not possible.
    bool download(int groupIndex);

    HubSearchModel* results() const { return results_; }
    HubVariantTree* variants() const { return variants_; }
    FitTargetBar* fitBar() const { return fitBar_; }
    QString openRepoId() const { return repo_; }
    QString status() const;

signals:
    void downloadsQueued(int count);
    void settingsRequested();

private:
    void setStatus(const QString& text, bool error = false);
    QString describe(const app::HubError& error) const;
    void updateFits();
    void updateButtons();
    QString baseModelOf(const QString& repo) const;  // from the search result's tags

    app::HubClient& hub_;
    app::DownloadManager& downloads_;
    app::GpuMonitor& gpus_;
    app::AppSettings& settings_;
    HubSearchModel* results_ = nullptr;
    QString repo_;
    QJsonObject repoConfig_;
    int searchSerial_ = 0;
    int repoSerial_ = 0;
    bool needsToken_ = false;

    QLabel* heading_ = nullptr;
    QLineEdit* query_ = nullptr;
    QComboBox* sort_ = nullptr;
    QCheckBox* ggufOnly_ = nullptr;
    QPushButton* searchButton_ = nullptr;
    QTableView* resultsView_ = nullptr;
    QLabel* repoHeading_ = nullptr;
    FitTargetBar* fitBar_ = nullptr;
    HubVariantTree* variants_ = nullptr;
    QPushButton* downloadButton_ = nullptr;
    QPushButton* tokenButton_ = nullptr;
    QLabel* status_ = nullptr;
};

}  // namespace hearth::ui
