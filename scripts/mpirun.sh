#!/usr/bin/env bash
# mpirun with the settings this project needs on a workstation or CI box
# (scripts/mpi-env.sh), and more ranks than cores accepted.
set -euo pipefail
source "$(dirname "$0")/mpi-env.sh"
exec mpirun --oversubscribe "$@"
