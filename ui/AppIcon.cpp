#include "AppIcon.h"

#include <QFile>
#include <QImageReader>
#include <QPainter>
#include <QPainterPath>

namespace hearth::ui {

QPixmap AppIcon::pixmap(int size) {
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 64.0, size / 64.0);  // drawn on a 64-unit grid

    QLinearGradient stone(0, 0, 0, 64);
    stone.setColorAt(0, QColor(0x4a, 0x34, 0x2a));
    stone.setColorAt(1, QColor(0x2b, 0x1d, 0x17));
    p.setPen(Qt::NoPen);
    p.setBrush(stone);
    p.drawRoundedRect(QRectF(2, 2, 60, 60), 12, 12);

    QPainterPath outer;
    outer.moveTo(32, 8);
    outer.cubicTo(42, 20, 50, 28, 48, 40);
    outer.cubicTo(46, 51, 39, 56, 32, 56);
    outer.cubicTo(25, 56, 18, 51, 16, 41);
    outer.cubicTo(15, 33, 20, 27, 24, 22);
    outer.cubicTo(25, 28, 27, 31, 30, 32);
    outer.cubicTo(28, 24, 29, 15, 32, 8);
    QLinearGradient fire(0, 8, 0, 56);
    fire.setColorAt(0, QColor(0xff, 0x8a, 0x1f));
    fire.setColorAt(1, QColor(0xe2, 0x3d, 0x12));
    p.setBrush(fire);
    p.drawPath(outer);

    QPainterPath inner;
    inner.moveTo(33, 28);
    inner.cubicTo(39, 35, 42, 41, 40, 47);
    inner.cubicTo(38, 52, 35, 53, 32, 53);
    inner.cubicTo(28, 53, 24, 50, 24, 45);
    inner.cubicTo(24, 40, 28, 37, 30, 34);
    inner.cubicTo(31, 38, 32, 39, 34, 40);
    inner.cubicTo(32, 36, 32, 32, 33, 28);
    p.setBrush(QColor(0xff, 0xd5, 0x4f));
    p.drawPath(inner);
    return pm;
}

QIcon AppIcon::icon() {
    // The SVG (resources/hearth.qrc) where Qt's SVG image plugin is installed; else the drawing.
    if (QImageReader::supportedImageFormats().contains("svg") && QFile::exists(QStringLiteral(":/icons/hearth.svg")))
        return QIcon(QStringLiteral(":/icons/hearth.svg"));
    QIcon icon;
    for (int s : {16, 24, 32, 48, 64, 128, 256}) icon.addPixmap(pixmap(s));
    return icon;
}

QColor AppIcon::serverStateColor(app::ServerBindMode mode) {
    switch (mode) {
        case app::ServerBindMode::Off: return QColor(0x9e, 0x9e, 0x9e);
        case app::ServerBindMode::Loopback: return QColor(0x42, 0x8b, 0xf5);
        case app::ServerBindMode::Lan: return QColor(0x2e, 0xb8, 0x4b);
    }
    return Qt::gray;
}

QIcon AppIcon::trayIcon(app::ServerBindMode mode) {
    QIcon icon;
    for (int s : {16, 22, 24, 32, 48, 64}) {
        QPixmap pm = pixmap(s);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        const qreal d = s * 0.42;
        p.setPen(QPen(Qt::white, qMax(1.0, s / 24.0)));
        p.setBrush(serverStateColor(mode));
        p.drawEllipse(QRectF(s - d - 0.5, s - d - 0.5, d, d));
        icon.addPixmap(pm);
    }
    return icon;
}

}  // namespace hearth::ui
