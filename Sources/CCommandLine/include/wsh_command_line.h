// The process's argument vector, kept for the Swift standard library's
// `CommandLine` (see wsh_command_line.c). Nothing here is called from Swift.
#ifndef WSH_COMMAND_LINE_H
#define WSH_COMMAND_LINE_H
#endif
