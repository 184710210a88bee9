// placeholder translation unit until the first page lands
namespace hearth::ui { int uiVersion() { return 1; } }
