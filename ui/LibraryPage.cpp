#include "LibraryPage.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ChatTemplateDialog.h"
#include "Formatting.h"
#include "hearth/model_info.h"
#include "LibraryModel.h"
#include "library/ModelLibrary.h"
#include "WidgetHelpers.h"

namespace hearth::ui {

LibraryPage::LibraryPage(app::ModelLibrary& library, QWidget* parent) : Page(parent), library_(library) {
    model_ = new LibraryModel(library_, this);

    heading_ = makeHeading(this, 1.4, "libraryHeading");

    addFile_ = new QPushButton(this);
    addFile_->setObjectName("addFileButton");
    addFolder_ = new QPushButton(this);
    addFolder_->setObjectName("addFolderButton");
    load_ = new QPushButton(this);
    load_->setObjectName("loadButton");
    delete_ = new QPushButton(this);
    delete_->setObjectName("deleteButton");
    template_ = new QPushButton(this);
    template_->setObjectName("chatTemplateButton");
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(addFile_);
    buttons->addWidget(addFolder_);
    buttons->addStretch();
    buttons->addWidget(load_);
    buttons->addWidget(template_);
    buttons->addWidget(delete_);

    table_ = new QTableView(this);
    table_->setObjectName("libraryTable");
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(LibraryModel::Name, QHeaderView::Stretch);
    table_->setAlternatingRowColors(true);

    emptyHint_ = new QLabel(this);
    emptyHint_->setObjectName("libraryEmptyHint");
    emptyHint_->setWordWrap(true);
    message_ = new QLabel(this);
    message_->setObjectName("libraryMessage");
    message_->setWordWrap(true);
    message_->setStyleSheet("color: #b3261e");
    message_->hide();

    detailsHeading_ = new QLabel(this);
    metadata_ = new QTableWidget(0, 2, this);
    metadata_->setObjectName("metadataTable");
    metadata_->verticalHeader()->hide();
    metadata_->horizontalHeader()->setStretchLastSection(true);
    metadata_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    metadata_->setWordWrap(false);

    auto* details = new QWidget(this);
    auto* detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(detailsHeading_);
    detailsLayout->addWidget(metadata_);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(table_);
    splitter->addWidget(details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addLayout(buttons);
    layout->addWidget(message_);
    layout->addWidget(emptyHint_);
    layout->addWidget(splitter, 1);

    connect(addFile_, &QPushButton::clicked, this, &LibraryPage::chooseFile);
    connect(addFolder_, &QPushButton::clicked, this, &LibraryPage::chooseFolder);
    connect(delete_, &QPushButton::clicked, this, &LibraryPage::deleteSelected);
    connect(template_, &QPushButton::clicked, this, &LibraryPage::editChatTemplate);
    connect(load_, &QPushButton::clicked, this, [this] {
        if (selectedId() > 0) emit loadRequested(selectedId());
    });
    connect(table_, &QTableView::doubleClicked, this, [this] {
        if (selectedId() > 0) emit loadRequested(selectedId());
    });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        showDetails();
        updateButtons();
    });
    connect(model_, &QAbstractItemModel::rowsInserted, this, &LibraryPage::updateButtons);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &LibraryPage::updateButtons);
    connect(model_, &QAbstractItemModel::modelReset, this, &LibraryPage::updateButtons);
    connect(model_, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& a, const QModelIndex& b) {
        const int row = table_->currentIndex().row();
        if (row >= a.row() && row <= b.row()) showDetails();
    });
    retranslate();
    updateButtons();
}

QString LibraryPage::title() const { return tr("Library"); }

void LibraryPage::retranslate() {
    heading_->setText(tr("Models on this computer"));
    addFile_->setText(tr("Add file…"));
    addFolder_->setText(tr("Add folder…"));
    load_->setText(tr("Load…"));
    delete_->setText(tr("Delete…"));
    template_->setText(tr("Chat template…"));
    template_->setToolTip(tr("Use your own chat template for this model"));
    emptyHint_->setText(tr("No models yet. Download one from Discover, or add a GGUF file or a folder of them."));
    detailsHeading_->setText(tr("Details"));
    metadata_->setHorizontalHeaderLabels({tr("Key"), tr("Value")});
    model_->retranslate();
    showDetails();
}

qint64 LibraryPage::selectedId() const {
    const auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return 0;
    const app::ModelRecord* r = model_->record(rows.first().row());
    return r ? r->id : 0;
}

void LibraryPage::selectModel(qint64 id) {
    const int row = model_->rowOf(id);
    if (row >= 0) table_->selectRow(row);
}

void LibraryPage::updateButtons() {
    const qint64 id = selectedId();
    const app::ModelRecord* r = id > 0 ? model_->record(model_->rowOf(id)) : nullptr;
    load_->setEnabled(r && !r->fileMissing && r->supported);
    delete_->setEnabled(r != nullptr);
    template_->setEnabled(r && !r->fileMissing);
    addFile_->setEnabled(library_.isOpen());
    addFolder_->setEnabled(library_.isOpen());
    emptyHint_->setVisible(model_->rowCount() == 0);
}

void LibraryPage::showError(const QString& text) {
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

bool LibraryPage::addFile(const QString& path) {
    auto added = library_.addFile(path);
    if (!added) {
        showError(tr("Could not add %1: %2").arg(path, QString::fromStdString(added.error().message)));
        return false;
    }
    showError({});
    selectModel(added->id);
    return true;
}

bool LibraryPage::addFolder(const QString& folder) {
    auto report = library_.scanFolder(folder);
    if (!report) {
        showError(tr("Could not scan %1: %2").arg(folder, QString::fromStdString(report.error().message)));
        return false;
    }
    showError({});
    return true;
}

void LibraryPage::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Add a model file"), QString(),
                                                      tr("GGUF models (*.gguf);;All files (*)"));
    if (!path.isEmpty()) addFile(path);
}

void LibraryPage::chooseFolder() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Add a folder of models"));
    if (!folder.isEmpty()) addFolder(folder);
}

void LibraryPage::deleteSelected() {
    const qint64 id = selectedId();
    auto record = library_.model(id);
    if (!record) return;
    QMessageBox box(QMessageBox::Warning, tr("Delete model"),
                    tr("Remove \"%1\" from the library?").arg(record->name), QMessageBox::NoButton, this);
    box.setObjectName("deleteConfirmation");
    auto* removeButton = box.addButton(tr("Remove"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    auto* alsoFile = new QCheckBox(tr("Also delete the file from disk (%1)").arg(formatBytes(quint64(record->fileSize))));
    alsoFile->setObjectName("deleteFileCheck");
    box.setCheckBox(alsoFile);
    box.setInformativeText(record->path);
    box.exec();
    if (box.clickedButton() != removeButton) return;
    if (Status s = library_.remove(id, alsoFile->isChecked()); !s)
        showError(tr("Could not delete %1: %2").arg(record->name, QString::fromStdString(s.error().message)));
    else
        showError({});
}

bool LibraryPage::setChatTemplate(qint64 id, const QString& source) {
    if (Status s = library_.setChatTemplate(id, source); !s) {
        showError(tr("Could not store the chat template: %1").arg(QString::fromStdString(s.error().message)));
        return false;
    }
    showError({});
    return true;
}

void LibraryPage::editChatTemplate() {
    auto record = library_.model(selectedId());
    if (!record) return;
    auto info = inspectModel(record->path.toStdString());
    const QString fileTemplate = info ? QString::fromStdString(info->chatTemplate) : QString();
    ChatTemplateDialog dialog(record->name, record->chatTemplate, fileTemplate, this);
    if (dialog.exec() == QDialog::Accepted) setChatTemplate(record->id, dialog.templateSource());
}

void LibraryPage::showDetails() {
    metadata_->setRowCount(0);
    auto record = library_.isOpen() ? library_.model(selectedId()) : std::nullopt;
    if (!record) return;
    QList<QPair<QString, QString>> rows = {
        {tr("File"), record->path},
        {tr("Size"), formatBytes(quint64(record->fileSize))},
        {tr("SHA-256"), record->sha256.isEmpty() ? tr("not computed yet") : record->sha256},
        {tr("Layers"), QString::number(record->layers)},
        {tr("KV cache per token (F16)"), formatBytes(quint64(record->kvBytesPerTokenF16))},
        {tr("Chat template"), record->chatTemplate.isEmpty() ? tr("the model's own") : tr("your own (%n characters)", nullptr, int(record->chatTemplate.size()))},
    };
    const QJsonObject meta = QJsonDocument::fromJson(record->metadataJson.toUtf8()).object();
    for (auto it = meta.begin(); it != meta.end(); ++it) rows.append({it.key(), it.value().toVariant().toString()});
    metadata_->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        metadata_->setItem(i, 0, new QTableWidgetItem(rows[i].first));
        metadata_->setItem(i, 1, new QTableWidgetItem(rows[i].second));
    }
    metadata_->resizeColumnToContents(0);
}

}  // namespace hearth::ui
