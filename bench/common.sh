# Shared helpers of the benchmark scripts (sourced, not run).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MUSATOP=${MUSATOP:-$ROOT/build/musatop}
FAKE_GMI=$ROOT/tests/support/fake-gmi
FIXTURES=$ROOT/tests/fixtures

need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "bench: '$tool' is missing (apt-get install ${tool/#time/time})" >&2; exit 2; }
  done
}
[ -x "$MUSATOP" ] || { echo "bench: build first (bash scripts/quickstart build)" >&2; exit 2; }

# make_scenario DIR DELAY: a fake GMI replaying the reference fixtures after DELAY s.
make_scenario() {
  local dir=$1 delay=$2
  mkdir -p "$dir/bin"
  ln -sf "$FAKE_GMI" "$dir/bin/mthreads-gmi"
  cp "$FIXTURES/gmi_query.json" "$dir/query.out"
  cp "$FIXTURES/gmi_processes.txt" "$dir/summary.out"
  echo "mthreads-gmi version : 2.3.3" > "$dir/version.out"
  for kind in query summary version; do
    if [ "$delay" != 0 ]; then echo "$delay" > "$dir/$kind.delay"; else rm -f "$dir/$kind.delay"; fi
  done
}

now_ns() { date +%s%N; }

# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

# time_ms N CMD...: median wall time of N runs, in ms
time_ms() {
  local n=$1
  shift
  for _ in $(seq "$n"); do
    local start end
    start=$(now_ns)
    "$@" >/dev/null 2>&1 || true
    end=$(now_ns)
    echo "scale=3; ($end - $start) / 1000000" | bc
  done | median
}
