#pragma once
// Dashboard: live charts (Qt Charts), updated twice a second from Engine::stats() and the GPU
// monitor: memory per GPU stacked as weights / KV cache / other / free; aggregate tokens per
// second (prefill and decode); running and waiting requests; prefix-cache and RAM-tier hit
// rates and the speculative acceptance rate.
//
// Invariant: the history keeps sampling while the page is hidden; charts are redrawn only while
// it is visible (and once when it is shown).

#include <QElapsedTimer>
#include <QTimer>

#include "Page.h"
#include "StatsHistory.h"

class QLabel;
class QChart;
class QChartView;
class QBarCategoryAxis;
class QBarSet;
class QLineSeries;
class QStackedBarSeries;
class QValueAxis;

namespace hearth::app {
class EngineHost;
class GpuMonitor;
}  // namespace hearth::app

namespace hearth::ui {

class DashboardPage : public Page {
    Q_OBJECT
public:
    DashboardPage(app::EngineHost& engine, app::GpuMonitor& gpus, QWidget* parent = nullptr);

    QString title() const override;
    void retranslate() override;
    void activated() override { redraw(); }

    // One sample now (the timer's work; tests call it to avoid waiting).
    void sample();
    const StatsHistory& history() const { return history_; }
    QList<DeviceMemoryBar> currentBars() const { return bars_; }

private:
    QChartView* makeChartView(QChart* chart, const char* objectName);
    void redraw();
    void redrawVram();

    app::EngineHost& engine_;
    app::GpuMonitor& gpus_;
    StatsHistory history_;
    QList<DeviceMemoryBar> bars_;
    QTimer timer_;
    QElapsedTimer clock_;

    QLabel* heading_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QLabel* figures_ = nullptr;
    QChart* vramChart_ = nullptr;
    QStackedBarSeries* vramSeries_ = nullptr;
    QBarSet* weightsSet_ = nullptr;
    QBarSet* kvSet_ = nullptr;
    QBarSet* otherSet_ = nullptr;
    QBarSet* freeSet_ = nullptr;
    QBarCategoryAxis* vramAxisX_ = nullptr;
    QValueAxis* vramAxisY_ = nullptr;
    QChart* speedChart_ = nullptr;
    QLineSeries* prefill_ = nullptr;
    QLineSeries* decode_ = nullptr;
    QValueAxis* speedAxisX_ = nullptr;
    QValueAxis* speedAxisY_ = nullptr;
    QChart* queueChart_ = nullptr;
    QLineSeries* running_ = nullptr;
    QLineSeries* waiting_ = nullptr;
    QValueAxis* queueAxisX_ = nullptr;
    QValueAxis* queueAxisY_ = nullptr;
    QChart* cacheChart_ = nullptr;
    QLineSeries* prefixHit_ = nullptr;
    QLineSeries* ramHit_ = nullptr;
    QLineSeries* accept_ = nullptr;
    QValueAxis* cacheAxisX_ = nullptr;
    QValueAxis* cacheAxisY_ = nullptr;
};

}  // namespace hearth::ui
