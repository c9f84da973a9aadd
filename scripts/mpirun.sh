#!/usr/bin/env bash
# mpirun with the settings this project needs on a workstation or CI box:
# running as root is allowed, and more ranks than cores are accepted.
set -euo pipefail
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
exec mpirun --oversubscribe "$@"
