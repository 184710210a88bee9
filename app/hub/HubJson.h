#pragma once
// Parsers for the Hugging Face hub's JSON answers (shapes as the public API returns them):
//   /api/models?...          [{"id": "owner/name", "downloads": N, "likes": N, "tags": [...],
//                              "pipeline_tag": "...", "library_name": "...", "createdAt": "...",
//                              "lastModified": "...", "gated": false|"auto"|"manual", ...}]
//   /api/models/{repo}/tree  [{"type": "file"|"directory", "path": "...", "size": N, "oid": "...",
//                              "lfs": {"oid": "<sha256>", "size": N, "pointerSize": N}}, ...]
// Unknown fields are ignored; a missing required field or a wrong type is a BadResponse error.
#include <QByteArray>
#include <QList>
#include <QString>

#include "hub/HubFile.h"
#include "hub/HubModelSummary.h"
#include "hub/HubResult.h"

namespace hearth::app {

class HubJson {
public:
    static HubResult<QList<HubModelSummary>> parseModels(const QByteArray& body);
    static HubResult<QList<HubFile>> parseTree(const QByteArray& body);  // files only, no folders
    // The hub's {"error": "..."} message, or the start of the body.
    static QString errorMessage(const QByteArray& body);
    // The URL in a Link header's rel="next" entry, or empty.
    static QString nextLink(const QByteArray& linkHeader);
};

}  // namespace hearth::app
