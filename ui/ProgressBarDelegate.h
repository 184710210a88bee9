#pragma once
// Draws a cell as a progress bar from a [0,1] value in a model role (the cell's text is the label),
// with the style's own progress bar. A negative value draws a busy (indeterminate) bar.
#include <QStyledItemDelegate>

namespace hearth::ui {

class ProgressBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    ProgressBarDelegate(int progressRole, QObject* parent = nullptr)
        : QStyledItemDelegate(parent), role_(progressRole) {}
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int role_;
};

}  // namespace hearth::ui
