# Environment for Open MPI launches on a workstation or CI box (sourced by the
# scripts that start tdcone outside SLURM):
# - as root, Open MPI refuses to start unless told that is intended;
# - PMIx tries its munge security plugin first: munge is installed (for SLURM)
#   but usually not running, and the plugin retries for seconds on every MPI
#   start, singletons included. Local launches need only the native plugin
#   (socket credentials).
# - MPI_Init opens the matching-transport components for Omni-Path (psm2),
#   InfiniPath (psm) and libfabric (ofi) even on a machine without such a
#   fabric, where each fails, which delays every start. Where no fabric
#   device exists and the user has chosen no transport, they are left out;
#   ob1 over shared memory and TCP is what such a machine uses anyway.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export PMIX_MCA_psec=${PMIX_MCA_psec:-native}
tdcone_fabric_devices() {
  local device
  for device in /dev/infiniband /dev/hfi1* /dev/ipath* /dev/cxi* /sys/class/infiniband/*; do
    [ -e "$device" ] && return 0
  done
  return 1
}
if [ -z "${OMPI_MCA_mtl:-}${OMPI_MCA_pml:-}" ] && ! tdcone_fabric_devices; then
  export OMPI_MCA_mtl='^psm,psm2,ofi'
fi
unset -f tdcone_fabric_devices
