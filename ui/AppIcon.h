#pragma once
// Hearth's icon, drawn with QPainter (no SVG module needed at run time): a flame on a rounded
// hearth-stone square. The tray variant adds a dot whose colour shows the API server's state.
// resources/hearth.svg is the same drawing for desktop environments (and for icon() where Qt's SVG
// image plugin is installed; the qrc is linked into `hearth` only, so tests get the drawing).

#include <QColor>
#include <QIcon>
#include <QPixmap>

#include "settings/ServerBindMode.h"

namespace hearth::ui {

class AppIcon {
public:
    static QPixmap pixmap(int size);
    static QIcon icon();  // 16..256 px
    static QColor serverStateColor(app::ServerBindMode mode);
    static QIcon trayIcon(app::ServerBindMode mode);
};

}  // namespace hearth::ui
