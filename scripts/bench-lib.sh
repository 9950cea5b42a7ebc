# Shared helpers for scripts/bench-*: timing and a side-by-side table.
# shellcheck shell=bash

# now_ns: monotonic-enough wall clock in nanoseconds.
now_ns() { date +%s%N; }

# best_of N CMD…: runs CMD N times, prints the best wall time in seconds.
best_of() {
    local runs=$1; shift
    local best="" start end elapsed
    for ((i = 0; i < runs; i++)); do
        start=$(now_ns)
        "$@" >/dev/null
        end=$(now_ns)
        elapsed=$(( end - start ))
        if [[ -z "$best" || $elapsed -lt $best ]]; then best=$elapsed; fi
    done
    awk -v ns="$best" 'BEGIN { printf "%.4f", ns / 1e9 }'
}

# free_port: an unused TCP port on 127.0.0.1.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# wait_http URL: waits up to 30 s for URL to answer.
wait_http() {
    for _ in $(seq 1 300); do
        curl -s -o /dev/null "$1" && return 0
        sleep 0.1
    done
    echo "no answer from $1" >&2
    return 1
}

# print_table BASELINE_LABEL: reads "label<TAB>seconds" lines on stdin and
# prints them with the ratio to the baseline row.
print_table() {
    awk -F '\t' -v base="$1" '
        { label[NR] = $1; secs[NR] = $2; if ($1 == base) b = $2 }
        END {
            printf "%-58s %10s %10s\n", "", "seconds", "vs " base
            for (i = 1; i <= NR; i++)
                printf "%-58s %10.4f %9.2fx\n", label[i], secs[i], (b > 0 ? secs[i] / b : 0)
        }'
}

# ratio_table JSON ANCHOR…: prints hyperfine's --export-json results as one
# table: mean ± σ and min in milliseconds, then each row's mean divided by
# each anchor's mean (anchors are command names given with hyperfine -n).
ratio_table() {
    python3 - "$@" <<'PY'
import json, sys
path, anchors = sys.argv[1], sys.argv[2:]
results = json.load(open(path))["results"]
mean = {r["command"]: r["mean"] for r in results}
width = max(len(r["command"]) for r in results) + 2
head = f'{"":{width}}{"mean ms":>9}{"± σ":>8}{"min ms":>9}' + "".join(f'{"÷ " + a:>{max(12, len(a) + 4)}}' for a in anchors)
print(head)
for r in results:
    line = f'{r["command"]:{width}}{r["mean"] * 1e3:9.2f}{r["stddev"] * 1e3:8.2f}{r["min"] * 1e3:9.2f}'
    line += "".join(f'{r["mean"] / mean[a]:>{max(12, len(a) + 4)}.2f}' for a in anchors)
    print(line)
PY
}
