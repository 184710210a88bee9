#!/usr/bin/env bash
# Runs on the GPU machine (through the device tool) from the repository root: unpacks the build
# carried in .carry/pack.tar.gz or .tar.xz (bin/, lib/, shared/ with the test models), then runs the CUDA
# tests (HEARTH_TEST_FILTER: a gtest filter), compute-sanitizer, the benchmarks named in $HEARTH_BENCH
# ("shape:mix:tests[:inv[:VAR=value,VAR2=value]] ...": one hearth-gpu-bench run each, with those
# variables set, for A/B runs of a switch; a shape and mix is generated once and reused;
# HEARTH_BENCH_SEQS: the aggregate test's sequence counts) and, with HEARTH_SPEC=1, the
# speculative-decoding bench. HEARTH_NCU_STALLS=1 adds stall reasons to the Nsight summaries,
# HEARTH_NCU_PIPES=1 the instruction issue per pipe; HEARTH_SASS="regex" dumps matching kernels' SASS.
# Logs go to $OUT. Build and pack on the development machine with bench/gpu/pack.sh.
set -u
OUT=${OUT:-/tmp/hearth-out}
mkdir -p "$OUT" /tmp/h
# HEARTH_PACK: another pack to unpack (one built for a few tests, e.g. .carry/spec/pack.tar.xz).
pack=${HEARTH_PACK:-.carry/pack.tar.xz}; [ -f "$pack" ] || pack=.carry/pack.tar.gz
if [[ $pack == *.xz ]]; then tar -xJf "$pack" -C /tmp/h; else tar -xzf "$pack" -C /tmp/h; fi
export HEARTH_SHARED=/tmp/h/shared
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib $(dirname "$(find /usr/local /usr/lib /opt -name 'libcublas.so.13*' 2>/dev/null | head -1)" 2>/dev/null); do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
repo=$(pwd)
cd /tmp/h
export LD_LIBRARY_PATH="/tmp/h/lib:${LD_LIBRARY_PATH:-}"  # ICU for hearth-cli (see pack.sh)
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used,clocks.sm,clocks.mem --format=csv
  nproc; free -g; uname -r
  ldd lib/libhearth-cuda.so
} > "$OUT/info.txt" 2>&1
t() { local name=$1 limit=$2; shift 2; echo "== $name" >> "$OUT/$name.log"; timeout "$limit" "$@" >> "$OUT/$name.log" 2>&1; echo "== exit $?" >> "$OUT/$name.log"; }
if [ "${HEARTH_TESTS:-1}" = 1 ]; then
  t tests ${HEARTH_TESTS_LIMIT:-200} bin/test_cuda --gtest_filter="${HEARTH_TEST_FILTER:-*}"
fi
# HEARTH_PTX_LIBS="NAME=LIB[@FILTER] ...": the CUDA tests again with each of those libraries
# (relative to the unpacked pack, e.g. sm80=lib/old/libhearth-cuda.so: a build for 80-virtual,
# packed with PACK_OLD_LIB), to tests-NAME.log, with that gtest filter (default
# HEARTH_TEST_FILTER's). A library that carries only older PTX runs the code a consumer card runs:
# the driver compiles it at load, cached under /tmp/h/jit for later runs and benches (a bench spec
# takes such a library by HEARTH_CUDA_LIB=/tmp/h/LIB).
export CUDA_CACHE_PATH=/tmp/h/jit CUDA_CACHE_MAXSIZE=4294967296
for entry in ${HEARTH_PTX_LIBS:-}; do
  name=${entry%%=*} lib=${entry#*=} filter=${HEARTH_TEST_FILTER:-*}
  [[ $lib == *@* ]] && filter=${lib#*@} && lib=${lib%%@*}
  t "tests-$name" ${HEARTH_PTX_LIMIT:-300} env HEARTH_CUDA_LIB="/tmp/h/$lib" bin/test_cuda --gtest_filter="$filter"
done
# HEARTH_MMA_COPY=1: the tensor-core kernels' weight movement alone (bench/gpu/MmaCopyBench.cu; pack
# it with PACK_BINS="... hearth-mma-copy-bench"), to mma-copy.log.
if [ "${HEARTH_MMA_COPY:-0}" = 1 ] && [ -x bin/hearth-mma-copy-bench ]; then
  t mma-copy 120 bin/hearth-mma-copy-bench
fi
if [ "${HEARTH_SPEC:-0}" = 1 ] && [ -x bin/hearth-cli ]; then
  # Speculative decoding on the GPU: bench/spec/spec-bench.sh with the coder models on device 0,
  # once per entry of HEARTH_SPEC_RUNS (a task; "+inv" for --batch-invariant, "+nvg" for graphs of
  # pure decode steps only).
  export REPS=${REPS:-1}
  for run in ${HEARTH_SPEC_RUNS:-continue}; do
    task=${run%%+*}; flags=(--devices 0); [[ $run == *+inv* ]] && flags+=(--batch-invariant)
    if [[ $run == *+nvg* ]]; then export HEARTH_CUDA_VERIFY_GRAPHS=0; else unset HEARTH_CUDA_VERIFY_GRAPHS; fi
    export TASK=$task; t spec ${HEARTH_SPEC_LIMIT:-150} bash "$repo/bench/spec/spec-bench.sh" bin/hearth-cli \
      "shared/models/${HEARTH_SPEC_MODEL:-coder-f16.gguf}" shared/models/coder-draft-f16.gguf \
      shared/testdata/text/python-sample.txt "$OUT/spec-$run" "${flags[@]}"
  done
fi
dir=/dev/shm
[ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -gt 40000000 ] || dir=/tmp
nlogits=0
for spec in ${HEARTH_BENCH:-}; do
  IFS=: read -r shape mix tests mode envs <<< "$spec"  # mode "inv": --batch-invariant
  inv=0; [ "${mode:-}" = inv ] && inv=1
  model="$dir/hearth-bench-$shape-$mix.gguf"
  # One kept model at a time (specs of a shape and mix come together): the rest would fill memory.
  for old in "$dir"/hearth-bench-*.gguf; do [ -f "$old" ] && [ "$old" != "$model" ] && rm -f "$old"; done
  src=(--keep 1); [ -f "$model" ] && src=(--model "$model")
  echo "== $spec" >> "$OUT/bench.log"
  # A spec whose tests include "logits" writes them to $OUT/logits-N.bin (N counts such specs), for cmp.
  logits=(); [[ $tests == *logits* ]] && logits=(--logits-out "$OUT/logits-$((nlogits++)).bin")
  # shellcheck disable=SC2086
  t bench ${HEARTH_BENCH_LIMIT:-200} env ${envs//,/ } bin/hearth-gpu-bench --shape "$shape" --mix "$mix" "${src[@]}" \
    --tests "$tests" --dir "$dir" --batch-invariant "$inv" --json "$OUT/bench.jsonl" ${HEARTH_BENCH_SEQS:+--seqs $HEARTH_BENCH_SEQS} "${logits[@]}"
done
ncu_summary() {
  python3 - "$1" "${HEARTH_NCU_EXTRA:-}" <<'PY'
import csv, sys, collections, re
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
agg = collections.defaultdict(lambda: collections.defaultdict(float))
for r in csv.DictReader(rows):
    name = re.sub(r"\(.*", "", r.get("Kernel Name", "?"))[:60]
    try: v = float(r["Metric Value"].replace(",", ""))
    except (KeyError, ValueError): v = 0.0
    m = r.get("Metric Name", "")
    a = agg[name]
    if m == "gpu__time_duration.sum": a["n"] += 1; a["t"] += v
    elif m.startswith("dram__bytes"): a["b"] += v
    else: a[m] += v
total = sum(a["t"] for a in agg.values())
stall = re.compile(r"smsp__average_warps_issue_stalled_(.*)_per_issue_active\.ratio")
print("per kernel: issue slots busy %, tensor pipe %, the largest stall reasons (warps per issue)")
for n, a in sorted(agg.items(), key=lambda x: -x[1]["t"])[:8]:
    k = max(a["n"], 1)
    st = sorted(((v / k, stall.match(m).group(1)) for m, v in a.items() if stall.match(m)), reverse=True)[:5]
    print("%-60s issue %5.1f%% tensor %5.1f%% | %s" % (n, a["smsp__issue_active.avg.pct_of_peak_sustained_active"] / k,
          a["sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"] / k,
          " ".join("%s %.2f" % (r, v) for v, r in st)))
pipe = re.compile(r"sm__inst_executed_pipe_(.*)\.avg\.pct_of_peak_sustained_active")
if any(pipe.match(m) for a in agg.values() for m in a):
    print("per kernel: the busiest pipes (% of peak instruction issue to that pipe)")
    for n, a in sorted(agg.items(), key=lambda x: -x[1]["t"])[:8]:
        k = max(a["n"], 1)
        ps = sorted(((v / k, pipe.match(m).group(1)) for m, v in a.items() if pipe.match(m)), reverse=True)[:7]
        print("%-60s %s" % (n, " ".join("%s %.1f" % (r, v) for v, r in ps)))
print("kernel, launches, total us, share, GB/s, us/launch, regs, grid, occupancy %, warp-inst/launch")
for n, a in sorted(agg.items(), key=lambda x: -x[1]["t"]):
    k = max(a["n"], 1)
    print("%-60s %5d %9.1f %5.1f%% %6.0f %7.2f %4.0f %6.0f %5.1f %9.0f" % (n, a["n"], a["t"] / 1e3, 100 * a["t"] / max(total, 1),
          a["b"] / max(a["t"], 1), a["t"] / k / 1e3, a["launch__registers_per_thread"] / k, a["launch__grid_size"] / k,
          a["sm__warps_active.avg.pct_of_peak_sustained_active"] / k, a["smsp__inst_executed.sum"] / k))
extra = [m for m in sys.argv[2].split(",") if m]
if extra:
    print("per kernel, the metrics of HEARTH_NCU_EXTRA (mean per launch)")
    for n, a in sorted(agg.items(), key=lambda x: -x[1]["t"])[:8]:
        k = max(a["n"], 1)
        print("%-60s %s" % (n, " ".join("%s %.4g" % (m, a[m] / k) for m in extra)))
print("total kernel time %.1f us" % (total / 1e3))
PY
}
# HEARTH_NCU="shape:mix:tests:seqs:skip:count[:VAR=value,...] ...": per-kernel durations and DRAM traffic
# of the launches after the first `skip` (a steady-state step), each run summarized in ncu-N.txt;
# HEARTH_NCU_KERNEL (a regex) profiles only the kernels it matches (skip and count count those).
# HEARTH_NCU_EXTRA=metric,metric: more Nsight metrics, their per-launch means in the summary.
i=0
for spec in ${HEARTH_NCU:-}; do
  IFS=: read -r shape mix tests seqs skip count envs <<< "$spec"  # envs: VAR=value,VAR2=value for this run
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  model="$dir/hearth-bench-$shape-$mix.gguf"
  src=(--keep 1); [ -f "$model" ] && src=(--model "$model")
  # shellcheck disable=SC2086
  t "ncu-$i" 240 env ${envs//,/ } "$ncu" --clock-control none --csv --print-units base ${HEARTH_NCU_KERNEL:+--kernel-name "regex:$HEARTH_NCU_KERNEL"} \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum${HEARTH_NCU_STALLS:+,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio}${HEARTH_NCU_PIPES:+,regex:sm__inst_executed_pipe_[a-z0-9_]*\.avg\.pct_of_peak_sustained_active}${HEARTH_NCU_EXTRA:+,$HEARTH_NCU_EXTRA} --launch-skip "${skip:-1500}" \
    --launch-count "${count:-400}" bin/hearth-gpu-bench --shape "$shape" --mix "$mix" "${src[@]}" --tests "${tests:-decode}" \
    --seqs "${seqs:-64}" --dir "$dir"
  { echo "== $spec"; ncu_summary "$OUT/ncu-$i.log"; } > "$OUT/ncu-$i.txt" 2>&1
  i=$((i + 1))
done
rm -f "$dir"/hearth-bench-*.gguf
# HEARTH_SASS="regex": the SASS of the kernels whose mangled names match, to sass.txt.
if [ -n "${HEARTH_SASS:-}" ]; then
  "$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)" -sass lib/libhearth-cuda.so 2>&1 |
    awk -v re="$HEARTH_SASS" '/Function : / {keep = ($0 ~ re)} keep' > "$OUT/sass.txt"
fi
racecheck() { t "$1" ${HEARTH_RACECHECK_LIMIT:-150} compute-sanitizer --tool racecheck --error-exitcode 3 bin/test_cuda --gtest_filter="$2"; }
if [ "${HEARTH_SANITIZE:-1}" = 1 ]; then
  t memcheck ${HEARTH_MEMCHECK_LIMIT:-120} compute-sanitizer --tool memcheck --error-exitcode 3 bin/test_cuda --gtest_filter="${HEARTH_SANITIZE_FILTER:-*}"
  racecheck racecheck "${HEARTH_RACECHECK_FILTER:-CudaBatch.DecodeLogits*:CudaBatch.DeviceSampling*:CudaVsCpu.KvCacheDtypes:CudaTensorCores.Flash*}"
fi
# HEARTH_RACECHECK_PARALLEL="FILTER FILTER ...": racecheck again, one process per gtest filter, all at
# once (racecheck-N.log), each under HEARTH_RACECHECK_LIMIT. Seven one-test processes of
# CudaTensorCores ended within 103 s of wall time, and the six that passed reported 406 s between them
# (an H100, 2026-12-07). A process whose test opens engines (the speculation tests) takes ~35 GB of
# host memory under racecheck, its engine's page-locked RAM tier included: with four at once the
# 128 GB machine fell to 15 GB available and one was killed (SIGKILL, no output). Two at a time.
# An entry VAR=value,VAR2=value%FILTER sets those variables for its process only
# (HEARTH_SPEC_TEST_PROMPTS=2%Proposers/CudaSpec.BatchInvariant*/draft).
# Host memory every 5 s while they run, to racecheck-mem.log ("used" and "available", MiB).
if [ -n "${HEARTH_RACECHECK_PARALLEL:-}" ]; then
  ( while true; do echo "$(date +%s) $(free -m | awk '/Mem:/ {print "used", $3, "avail", $7}')"; sleep 5; done ) \
    > "$OUT/racecheck-mem.log" 2>&1 &
  memlog=$!
fi
i=0 pids=()
for entry in ${HEARTH_RACECHECK_PARALLEL:-}; do
  # shellcheck disable=SC2086
  ( if [[ $entry == *%* ]]; then vars=${entry%%%*}; export ${vars//,/ }; fi; racecheck "racecheck-$i" "${entry#*%}" ) &
  pids+=($!) i=$((i + 1))
done
if [ ${#pids[@]} -gt 0 ]; then
  wait "${pids[@]}"
  kill "$memlog"
  sort -k5 -n "$OUT/racecheck-mem.log" | head -1 | sed 's/^/lowest available host memory: /'
fi
tail -n 60 "$OUT"/tests.log | grep -E "OK|FAILED|PASSED|SKIPPED|==" | tail -30
grep -hE "tok/s|ms |TB/s|ERROR SUMMARY|== " "$OUT"/*.log 2>/dev/null | tail -60
for f in "$OUT"/ncu-*.txt; do [ -f "$f" ] && head -45 "$f"; done
# (An if, not "&&": without a spec log the script would end with status 1, which reads as a failure.)
if [ -f "$OUT/spec.log" ]; then grep -E "^task|^\\| (off|ngram|index) \\| (1|8|32) \\|" "$OUT/spec.log"; fi
