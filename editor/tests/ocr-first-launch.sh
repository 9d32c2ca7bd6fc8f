#!/usr/bin/env bash
# How many of the Villager's node names a first launch shows legibly: the editor starts
# under Xvfb at 1600x1000 with a clean HOME and no arguments (it opens the Villager
# sample), a screenshot is taken, and tesseract reads it raw (no greyscale, no upscaling).
# A name counts when it occurs whole in what tesseract read; spaces and case are ignored
# on both sides, since tesseract often drops the narrow gap between two words and mixes
# up w and W. A name cut with an ellipsis does not count. Prints N/24.
#
# Not run by CI (it needs Xvfb, ImageMagick's `import`, tesseract and jq).
# Usage, from the workspace root (honours CARGO_TARGET_DIR):
#   editor/tests/ocr-first-launch.sh              # uses the debug build of arbor-editor
#   editor/tests/ocr-first-launch.sh BINARY       # or this one
# Environment: DISPLAY_NUMBER (default 83), SETTLE seconds before the screenshot
# (default 8), KEEP=1 keeps the screenshot and the OCR text (their folder is printed).
set -euo pipefail

bin=${1:-${CARGO_TARGET_DIR:-target}/debug/arbor-editor}
if [[ ! -x $bin ]]; then
    echo "no editor binary at $bin (build it with: cargo build -p arbor-editor)" >&2
    exit 1
fi
names_file=samples/trees/villager.json
if [[ ! -f $names_file ]]; then
    echo "run from the workspace root ($names_file not found)" >&2
    exit 1
fi

display=:${DISPLAY_NUMBER:-83}
work=$(mktemp -d -t ocr-first-launch.XXXXXX)
Xvfb "$display" -screen 0 1600x1000x24 >"$work/xvfb.log" 2>&1 &
xvfb=$!
editor=
cleanup() {
    [[ -n $editor ]] && kill "$editor" 2>/dev/null || true
    kill "$xvfb" 2>/dev/null || true
    [[ ${KEEP:-0} == 1 ]] || rm -rf "$work"
}
trap cleanup EXIT
sleep 1

mkdir "$work/home"
DISPLAY=$display HOME=$work/home LIBGL_ALWAYS_SOFTWARE=1 "$bin" >"$work/editor.log" 2>&1 &
editor=$!
sleep "${SETTLE:-8}"
DISPLAY=$display import -window root "$work/shot.png"
tesseract "$work/shot.png" "$work/ocr" >/dev/null 2>&1

# The node names: a node's name, or its type when unnamed (as the canvas labels it).
read_text=$(tr -d '[:space:]' <"$work/ocr.txt")
read_text=${read_text,,}
total=0
found=0
missing=()
while IFS= read -r name; do
    total=$((total + 1))
    wanted=${name//[[:space:]]/}
    if [[ $read_text == *"${wanted,,}"* ]]; then
        found=$((found + 1))
    else
        missing+=("$name")
    fi
done < <(jq -r '.nodes[] | if (.name // "") == "" then .type else .name end' "$names_file")

if [[ ${#missing[@]} -gt 0 ]]; then
    printf 'not read: %s\n' "${missing[@]}"
fi
[[ ${KEEP:-0} == 1 ]] && echo "screenshot and OCR text: $work"
echo "$found/$total"
