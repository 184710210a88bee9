#include "server/ServedModel.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QFileInfo>

namespace hearth::app::server {
namespace {

std::string fileStem(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".gguf") == 0) name.resize(name.size() - 5);
    return name;
}

}  // namespace

ServedModel::ServedModel(std::shared_ptr<InferenceBackend> backend, std::string id)
    : backend_(std::move(backend)), tokenizer_(backend_->tokenizer()), id_(std::move(id)) {
    const std::string path = backend_->modelPath();
    if (id_.empty()) id_ = fileStem(path);
    if (auto info = inspectModel(path); info.ok()) info_ = std::move(*info);
    info_.path = path;

    auto formatter = ChatFormatter::create(backend_->chatTemplate(), tokenizer_);
    if (!formatter) {
        templateWarning_ = "the model's chat template does not parse (" + formatter.error().message + "); using a plain transcript";
        formatter = ChatFormatter::create("", tokenizer_);  // the fallback: cannot fail with a tokenizer
    }
    if (formatter) formatter_ = std::move(*formatter);

    const QFileInfo fi(QString::fromStdString(path));
    created_ = fi.exists() ? fi.lastModified().toSecsSinceEpoch() : 0;
    const QByteArray key = QByteArray::fromStdString(path) + '\0' + QByteArray::number(static_cast<qint64>(fi.size())) +
                           '\0' + QByteArray::number(created_);
    digest_ = QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().toStdString();
}

bool ServedModel::matches(const std::string& requested) const {
    if (requested == id_ || requested == id_ + ":latest") return true;
    const std::string path = backend_->modelPath();
    if (requested == path || requested == fileStem(path) || requested == fileStem(path) + ".gguf") return true;
    return !info_.name.empty() && (requested == info_.name || requested == info_.name + ":latest");
}

}  // namespace hearth::app::server
