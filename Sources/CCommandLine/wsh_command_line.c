// wsh's own copy of the argument vector for the Swift standard library's
// `CommandLine`, linked into the wsh executable only.
//
// On Linux the Swift runtime finds argv with a static initialiser in its
// CommandLine.cpp: it reads /proc/self/maps line by line with sscanf to find
// the stack, then walks back from `environ`. Every process pays for it before
// main, whether it reads `CommandLine` or not: a fifth of the instructions of
// `wsh -c 'echo hi'` (118 000 of 606 000, callgrind) and five system calls.
//
// glibc hands argc and argv to every function in .init_array. Defining the two
// functions that object file exports here means the static link never pulls it
// out of libswiftCore.a, so its initialiser never runs; the standard library
// reads the same argv through the same entry points. (With a shared Swift
// runtime, the debug build's, the runtime keeps its own and these go unused.)
#include "wsh_command_line.h"
#include <stdlib.h>
#include <unistd.h>

// Present only in a build with coverage (`swift build --enable-code-coverage`,
// which links LLVM's profile runtime); a weak reference is null elsewhere.
int __llvm_profile_write_file(void) __attribute__((weak));

void wsh_exit(int status) {
    if (__llvm_profile_write_file) __llvm_profile_write_file();
    _exit(status);
}
#if defined(__linux__) && defined(__GLIBC__)

static char **savedArgv;
static int savedArgc;
static char **overrideArgv;
static int overrideArgc;

static void wsh_save_argv(int argc, char **argv, char **envp) {
    (void)envp;
    savedArgc = argc;
    savedArgv = argv;
}

__attribute__((section(".init_array"), used))
static void (*const wsh_save_argv_entry)(int, char **, char **) = wsh_save_argv;

// The runtime's entry points (Swift calling convention), as CommandLine.cpp has them.
__attribute__((swiftcall, visibility("hidden")))
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    static char *emptyArgv[] = {NULL};
    if (overrideArgv) {
        *outArgLen = overrideArgc;
        return overrideArgv;
    }
    if (!savedArgv) {
        *outArgLen = 0;
        return emptyArgv;
    }
    *outArgLen = savedArgc;
    return savedArgv;
}

__attribute__((swiftcall, visibility("hidden")))
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    overrideArgv = argv;
    overrideArgc = argc;
}
#endif
