#include "ProgressBarDelegate.h"

#include <QApplication>
#include <QStyleOptionProgressBar>
#include <cmath>

namespace hearth::ui {

void ProgressBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const double value = index.data(role_).toDouble();
    QStyleOptionProgressBar bar;
    bar.rect = option.rect.adjusted(2, 3, -2, -3);
    bar.state = option.state | QStyle::State_Horizontal;
    bar.minimum = 0;
    bar.maximum = value < 0 ? 0 : 1000;
    bar.progress = value < 0 ? 0 : int(std::lround(value * 1000));
    bar.text = index.data(Qt::DisplayRole).toString();
    bar.textVisible = true;
    bar.textAlignment = Qt::AlignCenter;
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ProgressBar, &bar, painter, widget);
}

}  // namespace hearth::ui
