#pragma once
// Who may reach the built-in API server: nobody (off), this machine only, or the office LAN.
namespace hearth::app {
enum class ServerBindMode { Off = 0, Loopback = 1, Lan = 2 };
}
