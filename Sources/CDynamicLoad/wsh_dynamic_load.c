#include "wsh_dynamic_load.h"

#include <dlfcn.h>
#include <stddef.h>

const char *wsh_open_first(void **library, const char *const *file_names, int flags, const char *cannot_load) {
    *library = NULL;
    for (const char *const *name = file_names; *name != NULL && *library == NULL; name++) {
        *library = dlopen(*name, flags);
    }
    return *library == NULL ? cannot_load : NULL;
}
