#!/usr/bin/env bash
# Callgrind instruction counts of the UI thread for the three 5,000-node frames of
# docs/performance.md ("Instruction counts: egui 0.29 and egui 0.36"): a frame without an
# edit, the frame after a node move, the frame after a parameter change.
#
# Usage, from the workspace root (honours CARGO_TARGET_DIR):
#   editor/benches/callgrind-frames.sh            # builds the canvas bench, then measures
#   editor/benches/callgrind-frames.sh BINARY     # measures an already built canvas bench
# The callgrind dumps stay in a temporary folder (printed), for callgrind_annotate.
#
# How the frames are found: the bench binary runs in criterion's test mode (each
# benchmark once) with a filter, and callgrind writes one dump before and one after every
# `Driver::frame`, setup frames included; so frame k of the run is dump 2k. The filter
# keeps three benchmarks, but every group still builds its drivers (six frames each):
# frames 1-30 set up the `frame` group's 200-, 1,000- and 5,000-node drivers, frame 31 is
# `frame/default_zoom/5000`; 32-44 set up the rest of that group and `undo_redo_5000`;
# 45-50 set up `edit_then_frame_5000`, whose `move_node` is frame 51 and `set_param`
# frame 52; 53-58 set up the thread-CPU copy of that group. Dumps 62, 102 and 104 of 116.
# A bench that draws a different number of frames fails the count check below: update
# the numbers here when changing the bench.
set -euo pipefail

filter='^frame/default_zoom/5000$|^edit_then_frame_5000/'
expected_dumps=116
frames=("62 frame/default_zoom/5000" "102 edit_then_frame_5000/move_node" "104 edit_then_frame_5000/set_param")

if [[ $# -ge 1 ]]; then
    bin=$1
else
    # Cargo's progress and errors go to stderr; its JSON messages name the binary.
    bin=$(cargo bench -p arbor-editor --bench canvas --no-run --message-format=json |
        jq -r 'select(.reason == "compiler-artifact" and .target.name == "canvas" and .executable != null) | .executable' |
        tail -n 1)
fi
if [[ -z $bin || ! -x $bin ]]; then
    echo "no canvas bench binary (built with: cargo bench -p arbor-editor --bench canvas --no-run)" >&2
    exit 1
fi

out=$(mktemp -d -t callgrind-frames.XXXXXX)
echo "bench: $bin"
echo "dumps: $out"
valgrind --tool=callgrind --separate-threads=yes \
    --dump-before='canvas::Driver::frame' --dump-after='canvas::Driver::frame' \
    --callgrind-out-file="$out/cg.out" "$bin" "$filter" >"$out/run.log" 2>&1

# Thread 1 is the UI thread (the background check runs on threads of its own).
dumps=$(find "$out" -name 'cg.out.*-01' | wc -l)
if [[ $dumps -ne $expected_dumps ]]; then
    echo "expected $expected_dumps dumps of the UI thread, found $dumps: the bench's frames changed" >&2
    echo "(see the comment at the top of $0); run log: $out/run.log" >&2
    exit 1
fi
for f in "${frames[@]}"; do
    dump=${f%% *}
    name=${f#* }
    total=$(sed -n 's/^totals: *//p' "$out/cg.out.$dump-01")
    printf '%-36s %12s instructions (dump %s)\n' "$name" "$(sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$total")" "$dump"
done
