#include "LoadDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

#include "Formatting.h"
#include "GpuSelectionTable.h"
#include "MemoryEstimateView.h"
#include "gpu/GpuMonitor.h"
#include "host/EngineHost.h"
#include "host/MemoryEstimator.h"
#include "WidgetHelpers.h"

namespace hearth::ui {
namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
}  // namespace

LoadDialog::LoadDialog(const app::ModelRecord& model, app::GpuMonitor& gpus, app::EngineHost& host, QWidget* parent)
    : QDialog(parent), model_(model), gpus_(gpus), host_(host) {
    setObjectName("loadDialog");
    modelLabel_ = new QLabel(this);
    modelLabel_->setObjectName("loadModelLabel");
    modelLabel_->setWordWrap(true);

    devicesBox_ = new QGroupBox(this);
    gpuTable_ = new GpuSelectionTable(devicesBox_);
    auto* devicesLayout = new QVBoxLayout(devicesBox_);
    devicesLayout->addWidget(gpuTable_);

    buildOptions();

    estimateBox_ = new QGroupBox(this);
    estimateView_ = new MemoryEstimateView(estimateBox_);
    auto* estimateLayout = new QVBoxLayout(estimateBox_);
    estimateLayout->addWidget(estimateView_);

    progress_ = new QProgressBar(this);
    progress_->setObjectName("loadProgress");
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setTextVisible(true);
    progress_->hide();
    status_ = new QLabel(this);
    status_->setObjectName("loadStatus");
    status_->setWordWrap(true);

    buttons_ = new QDialogButtonBox(this);
    loadButton_ = buttons_->addButton(QString(), QDialogButtonBox::AcceptRole);
    loadButton_->setObjectName("startLoadButton");
    loadButton_->setDefault(true);
    cancelButton_ = buttons_->addButton(QString(), QDialogButtonBox::RejectRole);
    cancelButton_->setObjectName("cancelLoadButton");
    connect(loadButton_, &QPushButton::clicked, this, &LoadDialog::startLoad);
    connect(cancelButton_, &QPushButton::clicked, this, &LoadDialog::reject);

    auto* columns = new QHBoxLayout;
    auto* left = new QVBoxLayout;
    left->addWidget(devicesBox_, 1);
    left->addWidget(estimateBox_, 1);
    auto* right = new QVBoxLayout;
    right->addWidget(optionsBox_);
    right->addWidget(specBox_);
    right->addStretch();
    columns->addLayout(left, 3);
    columns->addLayout(right, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(modelLabel_);
    layout->addLayout(columns, 1);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(buttons_);

    connect(gpuTable_, &GpuSelectionTable::selectionChanged, this, &LoadDialog::updateEstimate);
    connect(&gpus_, &app::GpuMonitor::updated, this, &LoadDialog::onSnapshot);
    connect(&host_, &app::EngineHost::loadProgress, this, [this](double f) {
        if (loading_) progress_->setValue(int(std::lround(f * 1000)));
    });
    connect(&host_, &app::EngineHost::loaded, this, [this] {
        if (!loading_) return;
        setLoading(false);
        accept();
    });
    connect(&host_, &app::EngineHost::loadFailed, this, &LoadDialog::onLoadFailed);

    if (gpus_.hasSnapshot()) {
        snapshot_ = gpus_.latest();
    } else {
        snapshot_.host = app::HostMemory::read();
    }
    gpuTable_->setSnapshot(snapshot_);
    gpus_.pollNow();
    resize(980, 640);
    retranslate();
    updateSpecWidgets();
    updateEstimate();
}

LoadDialog::~LoadDialog() {
    if (loading_) host_.cancelLoad();
}

void LoadDialog::buildOptions() {
    optionsBox_ = new QGroupBox(this);
    form_ = new QFormLayout(optionsBox_);
    const int layers = int(std::max<quint32>(1, model_.layers));

    cpuLayersSlider_ = new QSlider(Qt::Horizontal);
    cpuLayersSlider_->setRange(0, layers);
    cpuLayers_ = new QSpinBox;
    cpuLayers_->setObjectName("cpuLayersSpin");
    cpuLayers_->setRange(0, layers);
    connect(cpuLayersSlider_, &QSlider::valueChanged, cpuLayers_, &QSpinBox::setValue);
    connect(cpuLayers_, &QSpinBox::valueChanged, cpuLayersSlider_, &QSlider::setValue);
    auto* cpuRow = new QWidget;
    auto* cpuRowLayout = new QHBoxLayout(cpuRow);
    cpuRowLayout->setContentsMargins(0, 0, 0, 0);
    cpuRowLayout->addWidget(cpuLayersSlider_, 1);
    cpuRowLayout->addWidget(cpuLayers_);

    const int modelContext = model_.contextLength > 0 ? int(model_.contextLength) : 131072;
    context_ = new QSpinBox;
    context_->setObjectName("contextSpin");
    context_->setRange(std::min(128, modelContext), modelContext);
    context_->setSingleStep(512);
    context_->setValue(std::min(modelContext, 8192));

    kvType_ = new QComboBox;
    kvType_->setObjectName("kvTypeCombo");
    kvType_->addItem(QString(), int(KvDType::F16));
    kvType_->addItem(QString(), int(KvDType::FP8_E4M3));
    kvType_->addItem(QString(), int(KvDType::Q8_0));

    ramCache_ = new QDoubleSpinBox;
    ramCache_->setObjectName("ramCacheSpin");
    ramCache_->setDecimals(1);
    ramCache_->setSingleStep(0.5);
    ramCache_->setRange(0, 1024);
    ramCache_->setValue(0);
    ramAuto_ = new QCheckBox;
    ramAuto_->setObjectName("ramCacheAuto");
    ramAuto_->setChecked(true);  // the engine's default: a tenth of free RAM, at most 16 GiB
    ramCache_->setEnabled(false);
    auto* ramRow = new QWidget;
    auto* ramRowLayout = new QHBoxLayout(ramRow);
    ramRowLayout->setContentsMargins(0, 0, 0, 0);
    ramRowLayout->addWidget(ramAuto_);
    ramRowLayout->addWidget(ramCache_, 1);

    parallel_ = new QSpinBox;
    parallel_->setObjectName("parallelSpin");
    parallel_->setRange(1, 256);
    parallel_->setValue(4);

    form_->addRow(QStringLiteral("cpu"), cpuRow);
    form_->addRow(QStringLiteral("ctx"), context_);
    form_->addRow(QStringLiteral("kv"), kvType_);
    form_->addRow(QStringLiteral("ram"), ramRow);
    form_->addRow(QStringLiteral("par"), parallel_);

    specBox_ = new QGroupBox(this);
    specForm_ = new QFormLayout(specBox_);
    specMethod_ = new QComboBox;
    specMethod_->setObjectName("specMethodCombo");
    specMethod_->addItem(QString(), int(SpecMethod::None));
    specMethod_->addItem(QString(), int(SpecMethod::NGram));
    specMethod_->addItem(QString(), int(SpecMethod::Index));
    specMethod_->addItem(QString(), int(SpecMethod::Draft));
    specPath_ = new QLineEdit;
    specPath_->setObjectName("specPathEdit");
    specBrowse_ = new QToolButton;
    specBrowse_->setText(QStringLiteral("…"));
    auto* pathRow = new QWidget;
    auto* pathLayout = new QHBoxLayout(pathRow);
    pathLayout->setContentsMargins(0, 0, 0, 0);
    pathLayout->addWidget(specPath_, 1);
    pathLayout->addWidget(specBrowse_);
    specMaxDraft_ = new QSpinBox;
    specMaxDraft_->setObjectName("specMaxDraftSpin");
    specMaxDraft_->setRange(1, 32);
    specMaxDraft_->setValue(8);
    specForm_->addRow(QStringLiteral("method"), specMethod_);
    specForm_->addRow(QStringLiteral("path"), pathRow);
    specForm_->addRow(QStringLiteral("draft"), specMaxDraft_);

    for (auto* spin : {cpuLayers_, context_, parallel_})
        connect(spin, &QSpinBox::valueChanged, this, &LoadDialog::updateEstimate);
    connect(ramCache_, &QDoubleSpinBox::valueChanged, this, &LoadDialog::updateEstimate);
    connect(ramAuto_, &QCheckBox::toggled, this, [this](bool on) {
        ramCache_->setEnabled(!on);
        updateEstimate();
    });
    connect(kvType_, &QComboBox::currentIndexChanged, this, &LoadDialog::updateEstimate);
    connect(specMethod_, &QComboBox::currentIndexChanged, this, &LoadDialog::updateSpecWidgets);
    connect(specBrowse_, &QToolButton::clicked, this, [this] {
        const bool draft = SpecMethod(specMethod_->currentData().toInt()) == SpecMethod::Draft;
        const QString path = QFileDialog::getOpenFileName(
            this, draft ? tr("Choose a draft model") : tr("Choose a speculative index"), QFileInfo(model_.path).path(),
            draft ? tr("GGUF models (*.gguf)") : tr("All files (*)"));
        if (!path.isEmpty()) specPath_->setText(path);
    });
}

void LoadDialog::retranslate() {
    setWindowTitle(tr("Load %1").arg(model_.name));
    modelLabel_->setText(tr("<b>%1</b> — %2, %3, %4 layers, %5")
                             .arg(model_.name.toHtmlEscaped(), model_.architecture, model_.fileType)
                             .arg(model_.layers)
                             .arg(formatBytes(quint64(model_.fileSize))));
    devicesBox_->setTitle(tr("Devices"));
    optionsBox_->setTitle(tr("Options"));
    specBox_->setTitle(tr("Speculative decoding"));
    estimateBox_->setTitle(tr("Memory estimate"));
    setFormLabel(form_, cpuLayers_->parentWidget(), tr("Layers on the CPU"));
    setFormLabel(form_, context_, tr("Context length (tokens)"));
    setFormLabel(form_, kvType_, tr("KV cache type"));
    setFormLabel(form_, ramCache_->parentWidget(), tr("RAM cache for KV (GiB, 0 = off)"));
    ramAuto_->setText(tr("Automatic"));
    ramAuto_->setToolTip(tr("A tenth of the free memory, at most 16 GiB"));
    setFormLabel(form_, parallel_, tr("Parallel users"));
    setFormLabel(specForm_, specMethod_, tr("Method"));
    setFormLabel(specForm_, specPath_->parentWidget(), tr("Draft model or index"));
    setFormLabel(specForm_, specMaxDraft_, tr("Most draft tokens per step"));
    kvType_->setItemText(0, tr("F16 (best quality)"));
    kvType_->setItemText(1, tr("FP8 (half the memory)"));
    kvType_->setItemText(2, tr("Q8 (half the memory)"));
    specMethod_->setItemText(0, tr("Off"));
    specMethod_->setItemText(1, tr("Prompt lookup (n-gram)"));
    specMethod_->setItemText(2, tr("Domain index"));
    specMethod_->setItemText(3, tr("Draft model"));
    context_->setToolTip(tr("The longest conversation one user can have; KV memory grows with it."));
    parallel_->setToolTip(tr("How many requests may generate at the same time."));
    loadButton_->setText(tr("Load"));
    cancelButton_->setText(loading_ ? tr("Cancel loading") : tr("Close"));
    progress_->setFormat(tr("Loading… %p%"));
    gpuTable_->retranslate();
    estimateView_->retranslate();
}

void LoadDialog::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    QDialog::changeEvent(event);
}

void LoadDialog::updateSpecWidgets() {
    const auto method = SpecMethod(specMethod_->currentData().toInt());
    const bool needsPath = method == SpecMethod::Draft || method == SpecMethod::Index;
    specPath_->setEnabled(needsPath && !loading_);
    specBrowse_->setEnabled(needsPath && !loading_);
    specMaxDraft_->setEnabled(method != SpecMethod::None && !loading_);
}

void LoadDialog::onSnapshot(const app::GpuSnapshot& snapshot) {
    snapshot_ = snapshot;
    gpuTable_->setSnapshot(snapshot);
    updateEstimate();
}

app::MemoryPlanInput LoadDialog::planInput() const {
    app::MemoryPlanInput in;
    in.weightBytes = quint64(model_.fileSize);
    in.layers = int(model_.layers);
    in.kvBytesPerTokenF16 = model_.kvBytesPerTokenF16;
    in.contextLength = context_->value();
    in.parallelSequences = parallel_->value();
    in.kvType = KvDType(kvType_->currentData().toInt());
    in.gpus = gpuTable_->selectedGpus();
    in.split = gpuTable_->selectedShares();
    in.cpuLayers = cpuLayers_->value();
    in.hostAvailableBytes = snapshot_.host.availableBytes;
    in.ramCacheBytes = ramCacheBytes();
    return in;
}

const app::MemoryEstimate& LoadDialog::estimate() const { return estimateView_->estimate(); }

void LoadDialog::updateEstimate() {
    const bool anyGpu = !gpuTable_->selectedGpus().isEmpty();
    cpuLayers_->setEnabled(anyGpu && !loading_);
    cpuLayersSlider_->setEnabled(anyGpu && !loading_);
    estimateView_->setEstimate(app::MemoryEstimator::estimate(planInput()));
}

hearth::EngineConfig LoadDialog::config() const {
    hearth::EngineConfig c;
    c.modelPath = model_.path.toStdString();
    c.chatTemplateOverride = model_.chatTemplate.toStdString();  // the library's per-model override
    c.contextLength = context_->value();
    c.kvType = KvDType(kvType_->currentData().toInt());
    c.ramCacheBytes = ramAuto_->isChecked() ? hearth::EngineConfig::kRamCacheAuto : quint64(ramCache_->value() * kGiB);
    c.maxSeqs = parallel_->value();
    for (const auto& g : gpuTable_->selectedGpus()) c.placement.devices.push_back(g.device);
    for (double s : gpuTable_->selectedShares()) c.placement.split.push_back(float(s));
    c.placement.cpuLayers = c.placement.devices.empty() ? 0 : cpuLayers_->value();
    c.spec.method = SpecMethod(specMethod_->currentData().toInt());
    if (c.spec.method == SpecMethod::Draft || c.spec.method == SpecMethod::Index)
        c.spec.path = specPath_->text().trimmed().toStdString();
    c.spec.maxDraft = specMaxDraft_->value();
    return c;
}

void LoadDialog::setLoading(bool loading) {
    loading_ = loading;
    optionsBox_->setEnabled(!loading);
    specBox_->setEnabled(!loading);
    devicesBox_->setEnabled(!loading);
    loadButton_->setEnabled(!loading);
    progress_->setVisible(loading);
    cancelButton_->setText(loading ? tr("Cancel loading") : tr("Close"));
    updateSpecWidgets();
    updateEstimate();
}

void LoadDialog::startLoad() {
    if (loading_) return;
    const hearth::EngineConfig c = config();
    if ((c.spec.method == SpecMethod::Draft || c.spec.method == SpecMethod::Index) && c.spec.path.empty()) {
        status_->setText(tr("Choose the draft model or index file for speculative decoding."));
        return;
    }
    if (Status s = host_.load(c); !s) {
        status_->setText(tr("Cannot load: %1").arg(QString::fromStdString(s.error().message)));
        return;
    }
    progress_->setValue(0);
    status_->setText(tr("Loading %1…").arg(model_.name));
    setLoading(true);
}

void LoadDialog::onLoadFailed(const QString& message, bool cancelled) {
    if (!loading_) return;
    setLoading(false);
    status_->setText(cancelled ? tr("Loading was cancelled.") : tr("Loading failed: %1").arg(message));
}

void LoadDialog::setContextLength(int tokens) { context_->setValue(tokens); }
void LoadDialog::setParallelUsers(int n) { parallel_->setValue(n); }
void LoadDialog::setCpuLayers(int n) { cpuLayers_->setValue(n); }
void LoadDialog::setRamCacheGiB(double gib) {
    ramAuto_->setChecked(false);
    ramCache_->setValue(gib);
}

quint64 LoadDialog::ramCacheBytes() const {
    if (!ramAuto_->isChecked()) return quint64(ramCache_->value() * kGiB);
    // What the engine picks for kRamCacheAuto (hearth/engine.h), for the estimate.
    return std::min<quint64>(snapshot_.host.availableBytes / 10, 16ull << 30);
}
void LoadDialog::setKvType(hearth::KvDType type) {
    const int i = kvType_->findData(int(type));
    if (i >= 0) kvType_->setCurrentIndex(i);
}

void LoadDialog::reject() {
    if (loading_) {
        host_.cancelLoad();  // the dialog stays until the host confirms the cancel
        status_->setText(tr("Cancelling…"));
        return;
    }
    QDialog::reject();
}

}  // namespace hearth::ui
