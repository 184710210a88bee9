#include "WelcomePage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "AppIcon.h"
#include "WidgetHelpers.h"

namespace hearth::ui {

WelcomePage::WelcomePage(QWidget* parent) : Page(parent) {
    auto* icon = new QLabel(this);
    icon->setPixmap(AppIcon::pixmap(96));
    icon->setAlignment(Qt::AlignCenter);
    heading_ = makeHeading(this, 2.0, "welcomeHeading");
    heading_->setAlignment(Qt::AlignCenter);
    body_ = new QLabel(this);
    body_->setWordWrap(true);
    body_->setAlignment(Qt::AlignCenter);
    body_->setFixedWidth(620);
    gpuNote_ = new QLabel(this);
    gpuNote_->setWordWrap(true);
    gpuNote_->setAlignment(Qt::AlignCenter);
    gpuNote_->setFixedWidth(620);
    gpuNote_->setStyleSheet("color: palette(mid)");

    discover_ = new QPushButton(this);
    discover_->setObjectName("welcomeDiscoverButton");
    discover_->setDefault(true);
    discover_->setMinimumHeight(36);
    addFile_ = new QPushButton(this);
    addFile_->setObjectName("welcomeAddFileButton");
    addFile_->setMinimumHeight(36);
    library_ = new QPushButton(this);
    library_->setObjectName("welcomeLibraryButton");
    library_->setFlat(true);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(discover_);
    buttons->addWidget(addFile_);
    buttons->addStretch();

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(2);
    layout->addWidget(icon);
    layout->addWidget(heading_);
    layout->addSpacing(8);
    layout->addWidget(body_, 0, Qt::AlignHCenter);
    layout->addSpacing(16);
    layout->addLayout(buttons);
    layout->addWidget(library_, 0, Qt::AlignHCenter);
    layout->addSpacing(16);
    layout->addWidget(gpuNote_, 0, Qt::AlignHCenter);
    layout->addStretch(3);

    connect(discover_, &QPushButton::clicked, this, &WelcomePage::discoverRequested);
    connect(addFile_, &QPushButton::clicked, this, &WelcomePage::addFileRequested);
    connect(library_, &QPushButton::clicked, this, &WelcomePage::libraryRequested);
    retranslate();
}

QString WelcomePage::title() const { return tr("Welcome"); }

void WelcomePage::retranslate() {
    heading_->setText(tr("Welcome to Hearth"));
    body_->setText(tr("Hearth runs language models on this computer and shares them with your colleagues "
                      "over the office network. To begin, get a model: search the Hugging Face hub for a GGUF "
                      "model that fits your machine, or add a GGUF file you already have."));
    gpuNote_->setText(tr("No GPU? That is fine: small models run well on the CPU, and Hearth uses any NVIDIA "
                         "GPUs it finds."));
    discover_->setText(tr("Find a model on Discover"));
    addFile_->setText(tr("Add a model file…"));
    library_->setText(tr("Open the library"));
}

}  // namespace hearth::ui
