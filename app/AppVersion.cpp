#include "AppVersion.h"

namespace hearth::app {
const char* versionString() { return "0.1.0"; }
}
