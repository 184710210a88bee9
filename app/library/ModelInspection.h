#pragma once
// Fills a ModelRecord's metadata from a GGUF file's header (hearth::inspectModel reads the header
// only, never the weights). Used when a file is added and when a rescan sees it changed.
#include <QString>

#include "hearth/result.h"
#include "library/ModelRecord.h"

namespace hearth::app {

// A record with path, size, mtime and every metadata field set (id, sha256, origin and times are
// left for the caller). An error names the file and what is wrong with it.
Result<ModelRecord> inspectModelFile(const QString& path);

}  // namespace hearth::app
