#!/bin/sh
# Refreshes trees/: every tree the runtime's semantic tests compile through their helpers
# (runtime/tests/common), one file per tree named by the FNV-1a 64 hash of its text. Run it
# from anywhere after adding or changing a test in the groups tests/semantics.rs includes;
# the build script then generates a module per file.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$here/trees"
cd "$here/../.."
ARBOR_DUMP_TREES="$here/trees" cargo test -p arbor-runtime --test tests -- \
    attached:: composites:: decorators:: execution:: leaves:: ports:: signals:: examples:: \
    engine::last_visits engine::no_alloc engine::reload
echo "$(ls "$here/trees" | wc -l) trees in $here/trees"
