#pragma once
// Library: the local models (from the model library), add a file or a folder by hand, the
// selected model's GGUF metadata, delete with confirmation, and "Load…" (the main window opens
// the load dialog for the selected model), and a per-model chat template override.

#include "Page.h"

class QLabel;
class QPushButton;
class QTableView;
class QTableWidget;

namespace hearth::app {
class ModelLibrary;
}

namespace hearth::ui {

class LibraryModel;

class LibraryPage : public Page {
    Q_OBJECT
public:
    explicit LibraryPage(app::ModelLibrary& library, QWidget* parent = nullptr);

    QString title() const override;
    void retranslate() override;

    // The button handlers' work, without the file dialogs (tests call these).
    bool addFile(const QString& path);
    bool addFolder(const QString& folder);
    // Asks for confirmation (and whether to delete the file too), then removes the model.
    void deleteSelected();
    // Stores the user's chat template for the model ('' = the file's own); "Chat template…" opens
    // ChatTemplateDialog and calls this with what was accepted.
    bool setChatTemplate(qint64 id, const QString& source);
    qint64 selectedId() const;
    void selectModel(qint64 id);
    LibraryModel* model() const { return model_; }

signals:
    void loadRequested(qint64 modelId);

private:
    void chooseFile();
    void chooseFolder();
    void editChatTemplate();
    void showDetails();
    void updateButtons();
    void showError(const QString& text);

    app::ModelLibrary& library_;
    LibraryModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QTableWidget* metadata_ = nullptr;
    QLabel* heading_ = nullptr;
    QLabel* emptyHint_ = nullptr;
    QLabel* message_ = nullptr;
    QLabel* detailsHeading_ = nullptr;
    QPushButton* addFile_ = nullptr;
    QPushButton* addFolder_ = nullptr;
    QPushButton* load_ = nullptr;
    QPushButton* delete_ = nullptr;
    QPushButton* template_ = nullptr;
};

}  // namespace hearth::ui
