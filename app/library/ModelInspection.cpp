#include "library/ModelInspection.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "hearth/model_info.h"

namespace hearth::app {

Result<ModelRecord> inspectModelFile(const QString& path) {
    const QFileInfo file(path);
    if (!file.exists())
        return makeError(ErrorCode::IoError, ("model file not found: " + path).toStdString());
    if (!file.isFile() || !file.isReadable())
        return makeError(ErrorCode::IoError, ("not a readable file: " + path).toStdString());
    auto info = hearth::inspectModel(file.absoluteFilePath().toStdString());
    if (!info) return makeError(info.error().code, path.toStdString() + ": " + info.error().message);
    ModelRecord r;
    r.path = file.absoluteFilePath();
    r.fileSize = file.size();
    r.fileMtimeMs = file.lastModified().toMSecsSinceEpoch();
    r.architecture = QString::fromStdString(info->architecture);
    r.name = info->name.empty() ? file.completeBaseName() : QString::fromStdString(info->name);
    r.fileType = QString::fromStdString(info->fileType);
    r.parameterCount = info->parameterCount;
    r.contextLength = info->contextLength;
    r.layers = info->layers;
    r.kvBytesPerTokenF16 = info->kvBytesPerToken(2.0);
    r.supported = info->supported;
    QJsonObject metadata;
    for (const auto& [key, value] : info->metadata)
        metadata.insert(QString::fromStdString(key), QString::fromStdString(value));
    r.metadataJson = QString::fromUtf8(QJsonDocument(metadata).toJson(QJsonDocument::Compact));
    return r;
}

}  // namespace hearth::app
