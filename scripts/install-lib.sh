# Shared by scripts/install and scripts/package-deb (sourced, not run): the
# release build and the files generated from the built binaries.

# The executables an installation needs, built or given.
wsh_products=(wsh wsh-sandbox wsh-manual)

# Builds the static release of every product in wsh_products (as scripts/start
# builds wsh) and prints the folder that holds them.
wsh_build_release() {
    scripts/stamp-commit
    local product
    for product in "${wsh_products[@]}"; do
        scripts/build-release "$product"
    done
    scripts/build-release --show-bin-path
}

# Checks that DIR holds every product; prints DIR as an absolute path.
wsh_check_bin_dir() {
    local dir product
    dir=$(cd "$1" && pwd) || return 1
    for product in "${wsh_products[@]}"; do
        if [[ ! -x "$dir/$product" ]]; then
            echo "$dir/$product is missing: build it first (swift build, or without --bin-dir)" >&2
            return 1
        fi
    done
    printf '%s\n' "$dir"
}

# Writes the man pages and completion scripts generated from the binaries in
# BIN_DIR into OUT_DIR: wsh.1, wsh-sandbox.1, wsh.bash, _wsh (zsh), wsh.fish.
wsh_generate_files() {
    local bin=$1 out=$2 date_args=() day
    # The commit's date, so the pages do not change from one day to the next.
    if day=$(git log -1 --format=%cs 2>/dev/null) && [[ -n "$day" ]]; then date_args=(--date "$day"); fi
    "$bin/wsh" --experimental-dump-help | "$bin/wsh-manual" wsh "${date_args[@]}" >"$out/wsh.1"
    "$bin/wsh-sandbox" --experimental-dump-help | "$bin/wsh-manual" wsh-sandbox "${date_args[@]}" >"$out/wsh-sandbox.1"
    "$bin/wsh" --generate-completion-script bash >"$out/wsh.bash"
    "$bin/wsh" --generate-completion-script zsh >"$out/_wsh"
    "$bin/wsh" --generate-completion-script fish >"$out/wsh.fish"
}

# The binaries an installation ships, stripped.
wsh_installed_binaries=(wsh wsh-sandbox)

# Splits each of wsh_installed_binaries in BIN_DIR into OUT_DIR/NAME, stripped
# of its symbol table and DWARF (docs/PERFORMANCE.md weighs them), and
# OUT_DIR/NAME.debug holding them, compressed, for a debugger or a crash
# report. The stripped binary names its debug file in .gnu_debuglink (with the
# file's CRC) and keeps its GNU build ID, which the debug file shares: gdb
# finds the file by either. BIN_DIR's own binaries are left as they are.
wsh_split_debug() {
    local bin=$1 out=$2 name
    for name in "${wsh_installed_binaries[@]}"; do
        objcopy --only-keep-debug --compress-debug-sections=zlib "$bin/$name" "$out/$name.debug"
        strip --strip-all -o "$out/$name" "$bin/$name"
        objcopy --add-gnu-debuglink="$out/$name.debug" "$out/$name"
        chmod 755 "$out/$name"
        chmod 644 "$out/$name.debug"
    done
}

# Where a debugger looks for FILE's debug file under a debug folder
# (/usr/lib/debug, or what gdb's debug-file-directory names):
# .build-id/ab/cdef….debug from FILE's GNU build ID. Fails without one.
wsh_build_id_path() {
    local id
    id=$(readelf -n "$1" | awk '/Build ID:/ && !found { print $3; found = 1 }')
    if [[ -z "$id" ]]; then
        echo "$1 has no GNU build ID: its debug file cannot be found by it" >&2
        return 1
    fi
    printf '.build-id/%s/%s.debug\n' "${id:0:2}" "${id:2}"
}

# The version the wsh binary in BIN_DIR reports: 0.1.0 from "wsh 0.1.0 (commit …)",
# the first of --version's lines (the second names the licence).
wsh_version() {
    local line
    line=$("$1/wsh" --version | sed -n 1p)
    line=${line#wsh }
    printf '%s\n' "${line%% *}"
}
