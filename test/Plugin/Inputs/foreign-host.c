/* foreign-host.c - a tool that is not the MLIR CoroPlugin.so was built
 * for: it loads the plugin and calls its entry points itself, as a tool
 * linked with another MLIR (another version, or a static one) would, and
 * prints the API version each returns. The plugin must refuse (version 0,
 * which no MLIR accepts) and say why, and registers nothing.
 *
 * usage: foreign-host PLUGIN */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

/* mlir::PassPluginLibraryInfo and mlir::DialectPluginLibraryInfo, whose
 * callbacks are not called here. */
struct plugin_info {
  uint32_t apiVersion;
  const char *pluginName;
  const char *pluginVersion;
  void (*callback)(void);
};

static int query(void *lib, const char *entry) {
  struct plugin_info (*get)(void) =
      (struct plugin_info (*)(void))dlsym(lib, entry);
  if (!get) {
    printf("%s: missing\n", entry);
    return 1;
  }
  struct plugin_info info = get();
  printf("%s: %s API version %u\n", entry, info.pluginName,
         (unsigned)info.apiVersion);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: foreign-host PLUGIN\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "foreign-host: %s\n", dlerror());
    return 1;
  }
  int failed = query(lib, "mlirGetPassPluginInfo");
  failed |= query(lib, "mlirGetDialectPluginInfo");
  fflush(stdout);
  return failed;
}
