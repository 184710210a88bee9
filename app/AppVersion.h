#pragma once
// The application's version string, shared by both mains and the API server (/api/version).
namespace hearth::app {
const char* versionString();
}
