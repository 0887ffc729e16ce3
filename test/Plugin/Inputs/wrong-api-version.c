/* wrong-api-version.c - a pass plugin of an API version mlir-opt-22 does
 * not know (CoroPlugin.so answers 0 the same way to a tool of another
 * MLIR), to show what mlir-opt prints for it. */
#include <stdint.h>

struct plugin_info {
  uint32_t apiVersion;
  const char *pluginName;
  const char *pluginVersion;
  void (*callback)(void);
};

static void nothing(void) {}

struct plugin_info mlirGetPassPluginInfo(void) {
  struct plugin_info info = {0, "WrongAPIVersion", "0", nothing};
  return info;
}
