#!/usr/bin/env bash
# Install moneynb with its test tools and run every test: unit and rule tests, the shared
# random-game tests, every notebook under nbval, and the browser tests (JupyterLab driven by
# headless Chromium). Usage: bash scripts/test-all.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --upgrade pip
# The lock (binder/constraints.txt, written by `python binder/lock.py`): the tests run on exactly
# the versions Binder installs, whatever the package index offers today.
python3 -m pip install --quiet -c binder/constraints.txt -e ".[test]"
# that install also put plotly's widget code where Jupyter serves it (docs/ui.md, issue 41);
# where not, tests/browser/test_widget_code_served.py fails: say so now
python3 -m moneynb.ui.static || echo "plotly's widget code was not installed (see above)" >&2

# The browser tests need a Chromium: $MONEYNB_CHROMIUM, /usr/bin/chromium, or Playwright's own.
if [ -z "${MONEYNB_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests..."
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    echo "No Chromium found: run 'sudo apt-get install chromium' (Debian/Ubuntu), or" >&2
    echo "'python -m playwright install chromium', or set MONEYNB_CHROMIUM=/path/to/chrome." >&2
  fi
fi

# One process by default. MONEYNB_TEST_WORKERS=2 runs two workers (pytest-xdist): one runs every
# browser test, in order, with one JupyterLab, Voila and Chromium; the other files (each whole,
# with its own module fixtures) go to whichever worker is free (the groups: tests/conftest.py,
# notebooks/conftest.py). Not the default: on a 2-core machine the second worker starved the
# browser tests (4 timed out or ran late) and a notebook's kernel died at start (2026-12-03).
workers="${MONEYNB_TEST_WORKERS:-0}"
parallel=()
if [ "$workers" != 0 ]; then
  parallel=(-n "$workers" --dist loadgroup)
fi

start=$(date +%s)
status=0
python3 -m pytest tests notebooks --nbval-lax "${parallel[@]}" -p no:cacheprovider -o addopts="" \
  --durations=20 "$@" || status=$?
echo "whole test run: $(( $(date +%s) - start )) s (pytest exit status $status)"
exit "$status"
