#pragma once
// A repository's GGUF files grouped by quantization (one top-level row per QuantGroup, its parts
// as children) with size, bits per weight and whether it fits the chosen devices.
// Invariants: top-level row i is groups_[i]; estimates_ is empty or aligned with groups_.

#include <QList>
#include <QTreeWidget>

#include "hub/FitEstimate.h"
#include "hub/QuantGroup.h"

namespace hearth::ui {

class HubVariantTree : public QTreeWidget {
    Q_OBJECT
public:
    enum Column { Variant, Size, Bits, Fits, ColumnCount };

    explicit HubVariantTree(QWidget* parent = nullptr);

    void setGroups(const QList<app::QuantGroup>& groups);
    void setEstimates(const QList<app::FitEstimate>& estimates);
    const QList<app::QuantGroup>& groups() const { return groups_; }
    const QList<app::FitEstimate>& estimates() const { return estimates_; }
    int selectedGroup() const;  // -1 when none
    void selectGroup(int index);
    void retranslate();

private:
    void refreshTexts();
    QList<app::QuantGroup> groups_;
    QList<app::FitEstimate> estimates_;
};

}  // namespace hearth::ui
