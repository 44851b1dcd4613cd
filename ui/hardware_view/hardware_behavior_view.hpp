#pragma once
// The hardware-behaviour view of the Design view (paper Fig. 14), in two columns for a landscape view:
// on the left DRAM at the top, the buffers below it, the PE buffers and the MACs; on the right the PE
// array on the architecture's mesh (PEs the mapping uses highlighted, the others dim), each PE with its
// buffer and MAC cells; the tile of every tensor each level holds at the current
// time step; how every fan-out sends each tensor (broadcast / multicast / unicast, colour-coded); and
// the MACs coloured active / gated / skipped at that step. A time step is one iteration of the
// mapping's temporal loops (their bounds' product is the step count), not a cycle: the control says so
// and gives the cycle the step corresponds to, in proportion to the model's cycles. It walks the steps
// (prev / next, a slider, a step field to jump to, play / pause at a chosen speed) and reads out every
// loop's index.
// The logic is analysis::HardwareTrace; a step recomputes only the MAC states and labels and repaints
// one item per PE, so stepping stays fast on a 32 x 32 x 64-MAC array.
#include "analysis/hardware_trace.hpp"
#include "hardware_view/hardware_scene_items.hpp"
#include "model/evaluation_result.hpp"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QGraphicsScene;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineEdit;
class QSlider;
class QToolButton;

namespace sparsemap::ui {

class HardwareBehaviorView : public QWidget {
    Q_OBJECT
public:
    explicit HardwareBehaviorView(QWidget* parent = nullptr);
    ~HardwareBehaviorView() override;

    // Shows a design. A design the trace cannot draw (bounds that do not match the workload, a fan-out
    // above the architecture's, an unreadable `actual` file) shows the reason instead.
    void setDesign(const Workload& workload, const Architecture& arch, const Design& design,
                   const model::EvaluationResult& result);
    void clear();

    // For tests and the embedding view.
    QGraphicsScene* scene() const { return m_scene; }
    ZoomableGraphicsView* graphicsView() const { return m_view; }
    const analysis::HardwareTrace* trace() const { return m_trace ? m_trace.get() : nullptr; }
    std::int64_t stepCount() const { return m_trace ? m_trace->stepCount() : 0; }
    std::int64_t step() const { return m_step; }
    // The MAC counts the picture shows at the current step (from the states the PE items paint).
    analysis::MacCounts shownCounts() const;
    // The state (and so the colour) a MAC is drawn with at the current step.
    analysis::MacState shownState(std::int64_t mac) const;
    QString loopReadout() const;
    QString errorText() const { return m_error; }
    bool isPlaying() const { return m_timer.isActive(); }
    // "Step = temporal iteration 7 of 16 ≈ cycle 10 of 25": what the step field's number counts (at the
    // head of the loop readout).
    QString stepText() const;
    // The model's cycle the current step corresponds to, floor(step x cycles / steps); -1 without cycles.
    std::int64_t approximateCycle() const;
    // Play's speed, in time steps per second (the choices of the speed box).
    static QList<int> playSpeeds() { return {1, 3, 10, 30, 100, 1000, 10000}; }
    void setPlaySpeed(int stepsPerSecond);
    int playSpeed() const { return m_speed; }
    // What a tick of Play does: `playStride()` steps every `playInterval()` ms.
    int playStride() const { return m_stride; }
    int playInterval() const { return m_timer.interval(); }
    QComboBox* speedBox() const { return m_speedBox; }
    QLineEdit* stepEdit() const { return m_stepEdit; }
    QSlider* stepSlider() const { return m_slider; }

public slots:
    void setStep(std::int64_t step); // clamped to [0, stepCount)
    void nextStep();
    void previousStep();
    void setPlaying(bool playing);

signals:
    void stepChanged(std::int64_t step);

private:
    void buildScene(const model::EvaluationResult& result);
    void updateStep();
    void showMessage(const QString& text);
    QString levelSummary(int level, const model::EvaluationResult& result) const;
    QString levelTileText(int level, int tensor) const; // instance 0's tile at the current step

    QGraphicsScene* m_scene = nullptr;
    ZoomableGraphicsView* m_view = nullptr;
    // Tool buttons: push buttons are at least 80 px wide each, too wide for a narrow Design view.
    QToolButton* m_prev = nullptr;
    QToolButton* m_next = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_fit = nullptr;
    QSlider* m_slider = nullptr;
    QLineEdit* m_stepEdit = nullptr;
    QLabel* m_stepOf = nullptr;
    QComboBox* m_speedBox = nullptr;
    int m_speed = 10;
    int m_stride = 1;
    double m_cycles = 0; // the model's, 0 for an invalid design
    QLabel* m_loops = nullptr;
    QLabel* m_counts = nullptr;
    QTimer m_timer;

    std::unique_ptr<analysis::HardwareTrace> m_trace;
    std::int64_t m_step = 0;
    QString m_error;
    PeArrayState m_state;
    std::vector<PeItem*> m_peItems;                                  // used PEs only, updated per step
    std::vector<std::vector<QGraphicsSimpleTextItem*>> m_levelTiles; // [level][tensor], upper levels
    bool m_updatingControls = false;
};

} // namespace sparsemap::ui
