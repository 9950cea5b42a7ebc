// The process's argument vector, kept for the Swift standard library's
// `CommandLine` (see wsh_command_line.c), and the process's way out.
#ifndef WSH_COMMAND_LINE_H
#define WSH_COMMAND_LINE_H

/// Ends the process with `status` without running exit()'s handlers, after
/// writing the coverage profile when the build collects one (so
/// scripts/files-touched can read what ran). stdio is flushed by the caller.
__attribute__((noreturn)) void wsh_exit(int status);

#endif
