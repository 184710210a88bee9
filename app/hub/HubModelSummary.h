#pragma once
// One search result of the hub's /api/models.
// Invariant: id is "owner/name"; counts are what the hub reported (0 when absent).
#include <QDateTime>
#include <QString>
#include <QStringList>

namespace hearth::app {

struct HubModelSummary {
    QString id;
    QString author;       // the owner part of id
    qint64 downloads = 0;
    qint64 likes = 0;
    QStringList tags;
    QString pipelineTag;  // "text-generation", ...
    QString libraryName;  // "gguf", "transformers", ...
    QString gated;        // "" (open), "auto" or "manual"
    bool isPrivate = false;
    QDateTime createdAt;
    QDateTime lastModified;
};

}  // namespace hearth::app
