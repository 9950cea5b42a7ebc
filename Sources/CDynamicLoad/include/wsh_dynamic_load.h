// Loading a shared library on first use, for the C shims (CCurl, CEditLine).
#ifndef WSH_DYNAMIC_LOAD_H
#define WSH_DYNAMIC_LOAD_H

#ifdef __cplusplus
extern "C" {
#endif

/// Opens the first of `file_names` (a NULL ends them) that loads, with
/// dlopen's `flags`, into `*library`. NULL when one did, else `cannot_load`.
const char *wsh_open_first(void **library, const char *const *file_names, int flags, const char *cannot_load);

#ifdef __cplusplus
}
#endif

#endif
