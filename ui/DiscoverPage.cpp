#include "DiscoverPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "FitTargetBar.h"
#include "Formatting.h"
#include "HubSearchModel.h"
#include "HubVariantTree.h"
// DownloadManager.h keeps a QPointer<ModelLibrary>, which needs the complete type.
#include "library/ModelLibrary.h"
#include "downloads/DownloadManager.h"
#include "downloads/HubDownload.h"
#include "gpu/GpuMonitor.h"
#include "hub/FitEstimator.h"
#include "hub/HubClient.h"
#include "hub/QuantGrouping.h"
#include "settings/AppSettings.h"
#include "WidgetHelpers.h"

namespace hearth::ui {

DiscoverPage::DiscoverPage(app::HubClient& hub, app::DownloadManager& downloads, app::GpuMonitor& gpus,
                           app::AppSettings& settings, QWidget* parent)
    : Page(parent), hub_(hub), downloads_(downloads), gpus_(gpus), settings_(settings) {
    results_ = new HubSearchModel(this);

    heading_ = makeHeading(this, 1.4);
    query_ = new QLineEdit(this);
    query_->setObjectName("hubQuery");
    query_->setClearButtonEnabled(true);
    sort_ = new QComboBox(this);
    sort_->setObjectName("hubSort");
    for (auto s : {app::HubSearchQuery::Sort::Downloads, app::HubSearchQuery::Sort::Likes,
                   app::HubSearchQuery::Sort::Trending, app::HubSearchQuery::Sort::LastModified})
        sort_->addItem(QString(), int(s));
    ggufOnly_ = new QCheckBox(this);
    ggufOnly_->setObjectName("hubGgufOnly");
    ggufOnly_->setChecked(true);
    searchButton_ = new QPushButton(this);
    searchButton_->setObjectName("hubSearchButton");
    auto* searchRow = new QHBoxLayout;
    searchRow->addWidget(query_, 1);
    searchRow->addWidget(sort_);
    searchRow->addWidget(ggufOnly_);
    searchRow->addWidget(searchButton_);

    resultsView_ = new QTableView(this);
    resultsView_->setObjectName("hubResults");
    resultsView_->setModel(results_);
    resultsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    resultsView_->setSelectionMode(QAbstractItemView::SingleSelection);
    resultsView_->verticalHeader()->hide();
    resultsView_->horizontalHeader()->setSectionResizeMode(HubSearchModel::Model, QHeaderView::Stretch);

    repoHeading_ = new QLabel(this);
    repoHeading_->setObjectName("repoHeading");
    repoHeading_->setWordWrap(true);
    fitBar_ = new FitTargetBar(this);
    variants_ = new HubVariantTree(this);
    downloadButton_ = new QPushButton(this);
    downloadButton_->setObjectName("hubDownloadButton");
    tokenButton_ = new QPushButton(this);
    tokenButton_->setObjectName("hubTokenButton");
    tokenButton_->hide();
    auto* downloadRow = new QHBoxLayout;
    downloadRow->addStretch();
    downloadRow->addWidget(tokenButton_);
    downloadRow->addWidget(downloadButton_);
    auto* repoPanel = new QWidget(this);
    auto* repoLayout = new QVBoxLayout(repoPanel);
    repoLayout->setContentsMargins(0, 0, 0, 0);
    repoLayout->addWidget(repoHeading_);
    repoLayout->addWidget(fitBar_);
    repoLayout->addWidget(variants_, 1);
    repoLayout->addLayout(downloadRow);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(resultsView_);
    splitter->addWidget(repoPanel);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    status_ = new QLabel(this);
    status_->setObjectName("hubStatus");
    status_->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addLayout(searchRow);
    layout->addWidget(status_);
    layout->addWidget(splitter, 1);

    connect(searchButton_, &QPushButton::clicked, this, &DiscoverPage::search);
    connect(query_, &QLineEdit::returnPressed, this, &DiscoverPage::search);
    connect(sort_, &QComboBox::activated, this, &DiscoverPage::search);
    connect(resultsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& index) {
                if (const app::HubModelSummary* m = results_->summary(index.row())) openRepo(m->id);
            });
    connect(fitBar_, &FitTargetBar::changed, this, &DiscoverPage::updateFits);
    connect(variants_, &QTreeWidget::itemSelectionChanged, this, &DiscoverPage::updateButtons);
    connect(downloadButton_, &QPushButton::clicked, this, [this] { download(variants_->selectedGroup()); });
    connect(tokenButton_, &QPushButton::clicked, this, &DiscoverPage::settingsRequested);
    connect(&gpus_, &app::GpuMonitor::updated, fitBar_, &FitTargetBar::setSnapshot);
    if (gpus_.hasSnapshot()) fitBar_->setSnapshot(gpus_.latest());
    retranslate();
    updateButtons();
}

QString DiscoverPage::title() const { return tr("Discover"); }

void DiscoverPage::retranslate() {
    heading_->setText(tr("Find models on the Hugging Face hub"));
    query_->setPlaceholderText(tr("Search models, e.g. \"qwen coder\" or \"llama 8b instruct\""));
    sort_->setItemText(0, tr("Most downloaded"));
    sort_->setItemText(1, tr("Most liked"));
    sort_->setItemText(2, tr("Trending"));
    sort_->setItemText(3, tr("Recently updated"));
    ggufOnly_->setText(tr("GGUF only"));
    searchButton_->setText(tr("Search"));
    downloadButton_->setText(tr("Download"));
    tokenButton_->setText(tr("Set access token…"));
    if (repo_.isEmpty()) repoHeading_->setText(tr("Pick a model to see its files."));
    results_->retranslate();
    fitBar_->retranslate();
    variants_->retranslate();
}

void DiscoverPage::activated() { gpus_.pollNow(); }

QString DiscoverPage::status() const { return status_->text(); }

void DiscoverPage::setStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #b3261e") : QString());
    tokenButton_->setVisible(needsToken_);
}

QString DiscoverPage::describe(const app::HubError& e) const {
    if (e.needsToken()) return tr("This repository needs a Hugging Face access token (HTTP %1). Add one in Settings.").arg(e.httpStatus);
    switch (e.kind) {
        case app::HubError::Kind::Timeout: return tr("The hub did not answer in time.");
        case app::HubError::Kind::Network: return tr("Cannot reach the hub: %1").arg(e.message);
        case app::HubError::Kind::Http: return tr("The hub answered HTTP %1: %2").arg(e.httpStatus).arg(e.message);
        case app::HubError::Kind::BadResponse: return tr("The hub sent something unexpected: %1").arg(e.message);
        case app::HubError::Kind::InvalidInput: return e.message;
        case app::HubError::Kind::Cancelled: return tr("Cancelled.");
    }
    return e.message;
}

void DiscoverPage::setQuery(const QString& text) { query_->setText(text); }

void DiscoverPage::search() {
    hub_.setBaseUrl(settings_.hubBaseUrl());
    app::HubSearchQuery q;
    q.text = query_->text().trimmed();
    q.sort = app::HubSearchQuery::Sort(sort_->currentData().toInt());
    q.ggufOnly = ggufOnly_->isChecked();
    const int serial = ++searchSerial_;
    needsToken_ = false;
    setStatus(tr("Searching…"));
    hub_.searchModels(q, this, [this, serial](app::HubResult<QList<app::HubModelSummary>> r) {
        if (serial != searchSerial_) return;
        if (!r.ok()) {
            needsToken_ = r.error().needsToken();
            setStatus(describe(r.error()), true);
            return;
        }
        results_->setResults(r.value());
        setStatus(r.value().isEmpty() ? tr("No models found.") : tr("%n model(s) found.", nullptr, int(r.value().size())));
    });
}

void DiscoverPage::openRepo(const QString& repo) {
    repo_ = repo;
    repoConfig_ = {};
    variants_->setGroups({});
    const int serial = ++repoSerial_;
    repoHeading_->setText(tr("<b>%1</b> — reading the file list…").arg(repo.toHtmlEscaped()));
    needsToken_ = false;
    hub_.listFiles(repo, this, [this, serial, repo](app::HubResult<QList<app::HubFile>> r) {
        if (serial != repoSerial_) return;
        if (!r.ok()) {
            needsToken_ = r.error().needsToken();
            repoHeading_->setText(QStringLiteral("<b>%1</b>").arg(repo.toHtmlEscaped()));
            setStatus(describe(r.error()), true);
            updateButtons();
            return;
        }
        const QList<app::QuantGroup> groups = app::QuantGrouping::group(r.value());
        variants_->setGroups(groups);
        repoHeading_->setText(groups.isEmpty() ? tr("<b>%1</b> has no GGUF files.").arg(repo.toHtmlEscaped())
                                               : tr("<b>%1</b> — %n variant(s)", nullptr, int(groups.size()))
                                                     .arg(repo.toHtmlEscaped()));
        setStatus(QString());
        updateFits();
        updateButtons();
    });
    // The KV size per token comes from config.json: GGUF repos rarely have one, so the base model's
    // (its "base_model:" tag) is asked next. Without either the fit is a guess from the size.
    hub_.fetchConfig(repo, this, [this, serial, repo](app::HubResult<QJsonObject> r) {
        if (serial != repoSerial_) return;
        if (r.ok()) {
            repoConfig_ = r.value();
            updateFits();
            return;
        }
        const QString base = baseModelOf(repo);
        if (base.isEmpty()) return;
        hub_.fetchConfig(base, this, [this, serial](app::HubResult<QJsonObject> b) {
            if (serial != repoSerial_ || !b.ok()) return;
            repoConfig_ = b.value();
            updateFits();
        });
    });
}

QString DiscoverPage::baseModelOf(const QString& repo) const {
    for (int row = 0; row < results_->rowCount(); ++row) {
        const app::HubModelSummary* m = results_->summary(row);
        if (!m || m->id != repo) continue;
        for (const QString& tag : m->tags) {
            // "base_model:owner/name" (not "base_model:quantized:owner/name" and the like).
            const QString value = tag.section(':', 1);
            if (tag.startsWith(QLatin1String("base_model:")) && !value.contains(':') && app::HubClient::isValidRepoId(value))
                return value;
        }
    }
    return {};
}

void DiscoverPage::updateFits() {
    const QList<app::QuantGroup>& groups = variants_->groups();
    if (groups.isEmpty()) return;
    const double configKv = app::FitEstimator::kvBytesPerTokenFromConfig(repoConfig_);
    QList<app::FitEstimate> estimates;
    for (const app::QuantGroup& g : groups) {
        app::FitRequest req;
        req.weightBytes = g.totalBytes;
        if (configKv > 0) {
            req.kvBytesPerToken = configKv;
        } else {
            quint64 params = app::FitEstimator::parameterCountFromName(repo_);
            if (params == 0) params = app::FitEstimator::parameterCountFromSize(g.totalBytes, g.bitsPerWeight);
            req.kvBytesPerToken = app::FitEstimator::kvBytesPerTokenGuess(params);
            req.kvApproximate = true;
        }
        req.contextLength = fitBar_->contextLength();
        req.parallelSequences = fitBar_->parallelUsers();
        req.deviceFreeBytes = fitBar_->selectedGpuFreeBytes();
        req.hostAvailableBytes = fitBar_->hostAvailableBytes();
        estimates.append(app::FitEstimator::estimate(req));
    }
    variants_->setEstimates(estimates);
}

void DiscoverPage::updateButtons() {
    const int g = variants_->selectedGroup();
    downloadButton_->setEnabled(g >= 0 && g < variants_->groups().size() && variants_->groups()[g].complete);
    tokenButton_->setVisible(needsToken_);
}

bool DiscoverPage::download(int groupIndex) {
    if (groupIndex < 0 || groupIndex >= variants_->groups().size()) return false;
    const app::QuantGroup& g = variants_->groups()[groupIndex];
    if (!g.complete) {
        setStatus(tr("Some parts of this split model are missing from the repository."), true);
        return false;
    }
    int queued = 0;
    for (const app::HubFile& file : g.files) {
        const app::DownloadRequest request =
            app::hubDownloadRequest(hub_.fileUrl(repo_, file.path), repo_, file, settings_.downloadFolder());
        auto id = downloads_.enqueue(request);
        if (!id) {
            setStatus(tr("Could not queue %1: %2").arg(file.path, QString::fromStdString(id.error().message)), true);
            return false;
        }
        ++queued;
    }
    setStatus(tr("Queued %n file(s) for download.", nullptr, queued));
    emit downloadsQueued(queued);
    return true;
}

}  // namespace hearth::ui
