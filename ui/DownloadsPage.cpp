#include "DownloadsPage.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "DownloadsModel.h"
#include "ProgressBarDelegate.h"
// DownloadManager.h keeps a QPointer<ModelLibrary>, which needs the complete type.
#include "library/ModelLibrary.h"
#include "downloads/DownloadManager.h"
#include "WidgetHelpers.h"

namespace hearth::ui {

DownloadsPage::DownloadsPage(app::DownloadManager& manager, QWidget* parent) : Page(parent), manager_(manager) {
    model_ = new DownloadsModel(manager_, this);
    heading_ = makeHeading(this, 1.4);
    empty_ = new QLabel(this);
    empty_->setObjectName("downloadsEmpty");
    message_ = new QLabel(this);
    message_->setObjectName("downloadsMessage");
    message_->setStyleSheet("color: #b3261e");
    message_->setWordWrap(true);
    message_->hide();

    table_ = new QTableView(this);
    table_->setObjectName("downloadsTable");
    table_->setModel(model_);
    table_->setItemDelegateForColumn(DownloadsModel::Progress, new ProgressBarDelegate(DownloadsModel::ProgressRole, table_));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(DownloadsModel::File, QHeaderView::Stretch);
    table_->setColumnWidth(DownloadsModel::Progress, 180);

    pause_ = new QPushButton(this);
    pause_->setObjectName("pauseDownloadButton");
    resume_ = new QPushButton(this);
    resume_->setObjectName("resumeDownloadButton");
    cancel_ = new QPushButton(this);
    cancel_->setObjectName("cancelDownloadButton");
    remove_ = new QPushButton(this);
    remove_->setObjectName("removeDownloadButton");
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    for (auto* b : {pause_, resume_, cancel_, remove_}) buttons->addWidget(b);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(empty_);
    layout->addWidget(message_);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);

    connect(pause_, &QPushButton::clicked, this, &DownloadsPage::pauseSelected);
    connect(resume_, &QPushButton::clicked, this, &DownloadsPage::resumeSelected);
    connect(cancel_, &QPushButton::clicked, this, &DownloadsPage::cancelSelected);
    connect(remove_, &QPushButton::clicked, this, &DownloadsPage::removeSelected);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &DownloadsPage::updateButtons);
    connect(model_, &QAbstractItemModel::dataChanged, this, &DownloadsPage::updateButtons);
    connect(model_, &QAbstractItemModel::modelReset, this, &DownloadsPage::updateButtons);
    retranslate();
}

QString DownloadsPage::title() const { return tr("Downloads"); }

void DownloadsPage::retranslate() {
    heading_->setText(tr("Downloads"));
    empty_->setText(tr("Nothing is downloading. Pick a model on Discover to download it."));
    pause_->setText(tr("Pause"));
    resume_->setText(tr("Resume"));
    cancel_->setText(tr("Cancel"));
    remove_->setText(tr("Remove from list"));
    model_->retranslate();
    updateButtons();
}

qint64 DownloadsPage::selectedId() const {
    const auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return 0;
    auto t = model_->task(rows.first().row());
    return t ? t->id : 0;
}

void DownloadsPage::selectTask(qint64 id) {
    const int row = model_->rowOf(id);
    if (row >= 0) table_->selectRow(row);
}

QString DownloadsPage::message() const { return message_->isVisible() ? message_->text() : QString(); }

void DownloadsPage::report(const Status& s) {
    message_->setText(s ? QString() : QString::fromStdString(s.error().message));
    message_->setVisible(!s);
    updateButtons();
}

void DownloadsPage::pauseSelected() { report(manager_.pause(selectedId())); }
void DownloadsPage::resumeSelected() { report(manager_.resume(selectedId())); }
void DownloadsPage::cancelSelected() { report(manager_.cancel(selectedId())); }
void DownloadsPage::removeSelected() { report(manager_.remove(selectedId())); }

void DownloadsPage::updateButtons() {
    const auto t = model_->task(model_->rowOf(selectedId()));
    using S = app::DownloadState;
    const S s = t ? t->state : S::Cancelled;
    pause_->setEnabled(t && (s == S::Running || s == S::Queued));
    resume_->setEnabled(t && (s == S::Paused || s == S::Failed));
    cancel_->setEnabled(t && s != S::Completed && s != S::Cancelled);
    remove_->setEnabled(t && (s == S::Completed || s == S::Failed || s == S::Cancelled));
    empty_->setVisible(model_->rowCount() == 0);
}

}  // namespace hearth::ui
