# Environment for Open MPI launches on a workstation or CI box (sourced by the
# scripts that start tdcone outside SLURM):
# - as root, Open MPI refuses to start unless told that is intended;
# - PMIx tries its munge security plugin first: munge is installed (for SLURM)
#   but usually not running, and the plugin retries for ~2.5 s on every MPI
#   start, singletons included. Local launches need only the native plugin
#   (socket credentials).
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export PMIX_MCA_psec=${PMIX_MCA_psec:-native}
