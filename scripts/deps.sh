#!/usr/bin/env bash
# deps.sh - install what warpsim needs to build, test and plot, when missing.
# Debian packages via apt-get (run as root, or with sudo available). Run
# by scripts/build.sh (so by run.sh and test.sh); safe to run again (does
# nothing when everything is there).
# Usage: scripts/deps.sh
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
warpsim_help "${BASH_SOURCE[0]}" "$@"

warpsim_need_packages() {
  local missing=()
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  command -v cc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
  command -v make >/dev/null 2>&1 || missing+=(make)
  command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
  command -v gnuplot >/dev/null 2>&1 || missing+=(gnuplot-nox)
  command -v parallel >/dev/null 2>&1 || missing+=(parallel)
  command -v column >/dev/null 2>&1 || missing+=(bsdextrautils)
  [ -x /usr/bin/time ] || missing+=(time)
  command -v flock >/dev/null 2>&1 || missing+=(util-linux)
  # Tests: a real OpenSSH server and client for sweep.sh --sshlogin (cli_sweep_ssh).
  command -v ssh >/dev/null 2>&1 && command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
  command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || missing+=(openssh-server)
  # Tests: clang + libFuzzer (tests/fuzz, the clang UBSan pass) and valgrind
  # (cli_valgrind and the speed guard's callgrind).
  if ! command -v clang >/dev/null 2>&1; then
    missing+=(clang libclang-rt-dev)
  elif [ ! -f "$(clang -print-file-name="libclang_rt.fuzzer-$(uname -m).a")" ]; then
    missing+=(libclang-rt-dev)
  fi
  command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
  if command -v pkg-config >/dev/null 2>&1; then
    pkg-config --exists 'glib-2.0 >= 2.70' || missing+=(libglib2.0-dev)
    pkg-config --exists json-glib-1.0 || missing+=(libjson-glib-dev)
    pkg-config --exists check || missing+=(check)
  else
    missing+=(libglib2.0-dev libjson-glib-dev check)
  fi
  # No pkg-config files: Nsight Compute CSV reader and SASS name demangler.
  [ -e /usr/include/csv.h ] || missing+=(libcsv-dev)
  [ -e /usr/include/libiberty/demangle.h ] || missing+=(libiberty-dev)
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  echo "warpsim: installing missing packages: ${missing[*]}" >&2
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo"
    else
      echo "warpsim: need root (or sudo) to apt-get install: ${missing[*]}" >&2
      return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

warpsim_need_packages
