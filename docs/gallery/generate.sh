#!/bin/sh
# Regenerates the gallery with flowrun itself: the text, SVG and HTML diagrams and the trace of
# the teaching flows, every step of each chain drawn (--steps; the HTML page's "every step"
# checkbox switches back to the nodes alone). Usage: docs/gallery/generate.sh [output-directory]
# FLOWRUN names the executable (default: .build/debug/flowrun, built with `swift build`).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-"$root/docs/gallery"}
flowrun=${FLOWRUN:-"$root/.build/debug/flowrun"}
cd "$root"
mkdir -p "$out"
while read -r scenario name; do
  "$flowrun" diagram "$scenario" --steps --format svg -o "$out/$name.svg"
  "$flowrun" diagram "$scenario" --steps --format html -o "$out/$name.html"
  "$flowrun" diagram "$scenario" --steps --format text -o "$out/$name.txt"
  "$flowrun" trace "$scenario" --steps > "$out/$name.trace.txt"
done <<'LIST'
scenarios/login/enable-button.yaml login-enable-button
scenarios/login/command.yaml login-command
scenarios/hud/two-commands.yaml hud-two-commands
scenarios/paging/refresh-and-next-page.yaml paging
scenarios/search/search-as-you-type.yaml search-as-you-type
LIST
# Where the libraries part: the flows of scenarios/libraries/ compared under every library.
"$flowrun" compare scenarios/libraries --reporter markdown > "$out/libraries.md"
