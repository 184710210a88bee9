#include "DashboardPage.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QLabel>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "Formatting.h"
#include "gpu/GpuMonitor.h"
#include "host/EngineHost.h"
#include "WidgetHelpers.h"

namespace hearth::ui {
namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

QLineSeries* addLine(QChart* chart, QValueAxis* x, QValueAxis* y, const QColor& color) {
    auto* s = new QLineSeries(chart);
    QPen pen(color);
    pen.setWidthF(2);
    s->setPen(pen);
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
    return s;
}

QChart* makeLineChart(QValueAxis** x, QValueAxis** y) {
    auto* chart = new QChart;
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    *x = new QValueAxis(chart);
    (*x)->setLabelFormat("%d");
    *y = new QValueAxis(chart);
    (*y)->setLabelFormat("%.0f");
    (*y)->setMin(0);
    chart->addAxis(*x, Qt::AlignBottom);
    chart->addAxis(*y, Qt::AlignLeft);
    return chart;
}
}  // namespace

DashboardPage::DashboardPage(app::EngineHost& engine, app::GpuMonitor& gpus, QWidget* parent)
    : Page(parent), engine_(engine), gpus_(gpus) {
    heading_ = makeHeading(this, 1.4);
    modelLabel_ = new QLabel(this);
    modelLabel_->setObjectName("dashboardModel");
    figures_ = new QLabel(this);
    figures_->setObjectName("dashboardFigures");
    figures_->setWordWrap(true);

    vramChart_ = new QChart;
    vramChart_->legend()->setAlignment(Qt::AlignBottom);
    vramChart_->setMargins(QMargins(4, 4, 4, 4));
    vramSeries_ = new QStackedBarSeries(vramChart_);
    weightsSet_ = new QBarSet(QString(), vramSeries_);
    kvSet_ = new QBarSet(QString(), vramSeries_);
    otherSet_ = new QBarSet(QString(), vramSeries_);
    freeSet_ = new QBarSet(QString(), vramSeries_);
    weightsSet_->setColor(QColor(0xe0, 0x6c, 0x1f));
    kvSet_->setColor(QColor(0x42, 0x8b, 0xf5));
    otherSet_->setColor(QColor(0x9c, 0x6a, 0xde));
    freeSet_->setColor(QColor(0xd8, 0xd8, 0xd8));
    for (auto* set : {weightsSet_, kvSet_, otherSet_, freeSet_}) vramSeries_->append(set);
    vramChart_->addSeries(vramSeries_);
    vramAxisX_ = new QBarCategoryAxis(vramChart_);
    vramAxisY_ = new QValueAxis(vramChart_);
    vramAxisY_->setLabelFormat("%.1f");
    vramChart_->addAxis(vramAxisX_, Qt::AlignBottom);
    vramChart_->addAxis(vramAxisY_, Qt::AlignLeft);
    vramSeries_->attachAxis(vramAxisX_);
    vramSeries_->attachAxis(vramAxisY_);

    speedChart_ = makeLineChart(&speedAxisX_, &speedAxisY_);
    prefill_ = addLine(speedChart_, speedAxisX_, speedAxisY_, QColor(0xe0, 0x6c, 0x1f));
    decode_ = addLine(speedChart_, speedAxisX_, speedAxisY_, QColor(0x2e, 0x7d, 0x32));
    queueChart_ = makeLineChart(&queueAxisX_, &queueAxisY_);
    running_ = addLine(queueChart_, queueAxisX_, queueAxisY_, QColor(0x2e, 0x7d, 0x32));
    waiting_ = addLine(queueChart_, queueAxisX_, queueAxisY_, QColor(0xb3, 0x26, 0x1e));
    cacheChart_ = makeLineChart(&cacheAxisX_, &cacheAxisY_);
    cacheAxisY_->setRange(0, 100);
    prefixHit_ = addLine(cacheChart_, cacheAxisX_, cacheAxisY_, QColor(0x42, 0x8b, 0xf5));
    ramHit_ = addLine(cacheChart_, cacheAxisX_, cacheAxisY_, QColor(0x9c, 0x6a, 0xde));
    accept_ = addLine(cacheChart_, cacheAxisX_, cacheAxisY_, QColor(0xe0, 0x6c, 0x1f));

    auto* grid = new QGridLayout;
    grid->addWidget(makeChartView(vramChart_, "vramChart"), 0, 0);
    grid->addWidget(makeChartView(speedChart_, "speedChart"), 0, 1);
    grid->addWidget(makeChartView(queueChart_, "queueChart"), 1, 0);
    grid->addWidget(makeChartView(cacheChart_, "cacheChart"), 1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(modelLabel_);
    layout->addWidget(figures_);
    layout->addLayout(grid, 1);

    clock_.start();
    timer_.setInterval(500);
    connect(&timer_, &QTimer::timeout, this, &DashboardPage::sample);
    timer_.start();
    retranslate();
    sample();
}

QChartView* DashboardPage::makeChartView(QChart* chart, const char* objectName) {
    auto* view = new QChartView(chart, this);
    view->setObjectName(objectName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(320, 220);
    return view;
}

QString DashboardPage::title() const { return tr("Dashboard"); }

void DashboardPage::retranslate() {
    heading_->setText(tr("Dashboard"));
    vramChart_->setTitle(tr("Memory per device (GiB)"));
    weightsSet_->setLabel(tr("Weights"));
    kvSet_->setLabel(tr("KV cache"));
    otherSet_->setLabel(tr("Other"));
    freeSet_->setLabel(tr("Free"));
    speedChart_->setTitle(tr("Tokens per second"));
    prefill_->setName(tr("Prefill"));
    decode_->setName(tr("Decode"));
    queueChart_->setTitle(tr("Requests"));
    running_->setName(tr("Running"));
    waiting_->setName(tr("Waiting"));
    cacheChart_->setTitle(tr("Cache and speculation (%)"));
    prefixHit_->setName(tr("Prefix-cache hits"));
    ramHit_->setName(tr("RAM-tier hits"));
    accept_->setName(tr("Draft acceptance"));
    for (auto* axis : {speedAxisX_, queueAxisX_, cacheAxisX_}) axis->setTitleText(tr("seconds"));
    redraw();
}

void DashboardPage::sample() {
    const auto stats = engine_.stats();
    history_.add(clock_.elapsed() / 1000.0, stats);
    bars_ = StatsHistory::memoryBars(gpus_.latest(), stats);
    if (isVisible()) redraw();
}

void DashboardPage::redrawVram() {
    QStringList names;
    for (const auto& b : bars_) names << (b.device >= 0 ? QStringLiteral("%1: %2").arg(b.device).arg(b.name) : tr("CPU (system RAM)"));
    if (vramAxisX_->categories() != names) {
        vramAxisX_->clear();
        vramAxisX_->append(names);
    }
    double top = 1;
    auto setValues = [&](QBarSet* set, double DeviceMemoryBar::*field) {
        QList<qreal> values;
        for (const auto& b : bars_) values << b.*field / kGiB;
        if (set->count() != values.size()) {
            set->remove(0, set->count());
            set->append(values);
        } else {
            for (int i = 0; i < values.size(); ++i) set->replace(i, values[i]);
        }
    };
    setValues(weightsSet_, &DeviceMemoryBar::weights);
    setValues(kvSet_, &DeviceMemoryBar::kvCache);
    setValues(otherSet_, &DeviceMemoryBar::other);
    setValues(freeSet_, &DeviceMemoryBar::free);
    for (const auto& b : bars_) top = std::max(top, b.total / kGiB);
    vramAxisY_->setRange(0, top);
}

void DashboardPage::redraw() {
    redrawVram();
    const auto& samples = history_.samples();
    QList<QPointF> pre, dec, run, wait, hit, ram, acc;
    double maxSpeed = 1, maxQueue = 1;
    for (const auto& s : samples) {
        pre << QPointF(s.seconds, s.prefillTokPerSec);
        dec << QPointF(s.seconds, s.decodeTokPerSec);
        run << QPointF(s.seconds, s.running);
        wait << QPointF(s.seconds, s.waiting);
        // An interval with nothing to measure leaves a gap instead of a fake 0.
        if (s.prefixHitRate >= 0) hit << QPointF(s.seconds, s.prefixHitRate * 100);
        if (s.ramHitRate >= 0) ram << QPointF(s.seconds, s.ramHitRate * 100);
        if (s.acceptRate >= 0) acc << QPointF(s.seconds, s.acceptRate * 100);
        maxSpeed = std::max({maxSpeed, s.prefillTokPerSec, s.decodeTokPerSec});
        maxQueue = std::max({maxQueue, double(s.running), double(s.waiting)});
    }
    prefill_->replace(pre);
    decode_->replace(dec);
    running_->replace(run);
    waiting_->replace(wait);
    prefixHit_->replace(hit);
    ramHit_->replace(ram);
    accept_->replace(acc);
    const double t1 = samples.isEmpty() ? 60 : std::max(60.0, samples.last().seconds);
    const double t0 = t1 - 60;
    for (auto* axis : {speedAxisX_, queueAxisX_, cacheAxisX_}) axis->setRange(t0, t1);
    speedAxisY_->setRange(0, maxSpeed * 1.15);
    speedAxisY_->applyNiceNumbers();
    // Request counts are whole numbers: ticks one (or a few) apart from 0.
    const double queueTop = std::max(2.0, std::ceil(maxQueue * 1.2));
    queueAxisY_->setRange(0, queueTop);
    queueAxisY_->setTickType(QValueAxis::TicksDynamic);
    queueAxisY_->setTickAnchor(0);
    queueAxisY_->setTickInterval(std::max(1.0, std::ceil(queueTop / 5)));

    const auto last = history_.last();
    if (!last || !last->loaded) {
        modelLabel_->setText(tr("No model is loaded. Load one from the Library to see live figures."));
        figures_->clear();
        return;
    }
    modelLabel_->setText(tr("Model: %1").arg(engine_.modelName()));
    auto rate = [](double r) { return r < 0 ? QStringLiteral("—") : formatPercent(r); };
    figures_->setText(tr("Prefill %1 tok/s · decode %2 tok/s · running %3 · waiting %4 · prefix-cache hits %5 · "
                         "draft acceptance %6")
                          .arg(QLocale().toString(last->prefillTokPerSec, 'f', 1),
                               QLocale().toString(last->decodeTokPerSec, 'f', 1))
                          .arg(last->running)
                          .arg(last->waiting)
                          .arg(rate(history_.cumulativePrefixHitRate()), rate(history_.cumulativeAcceptRate())));
}

}  // namespace hearth::ui
