#!/usr/bin/env bash
# Example Slurm batch script: the paper's Table IV study with 10 seeds (28 workloads x 3 presets x
# 3 methods x 10 seeds = 2,520 cells) over 4 nodes. Rank 0 hands out cells and stores results in
# --out (on a file system every node sees: only rank 0 writes there); every other rank runs one cell
# at a time with --cpus-per-task threads. Resubmitting the same script resumes: finished cells are
# kept, at most the cells in flight when a job was killed (time limit, node failure) are rerun.
#
#   sbatch docs/sweep-slurm.sh
#
#SBATCH --job-name=sparsemap-sweep
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=4
#SBATCH --cpus-per-task=8
#SBATCH --time=02:00:00
#SBATCH --output=sparsemap-sweep-%j.log

set -euo pipefail
SPARSEMAP=${SPARSEMAP:-$PWD/build/app/sparsemap} # built on a node with libopenmpi-dev present
OUT=${OUT:-$PWD/table4-10seeds}

# srun starts the ranks through PMIx/PMI2 (whichever the cluster's Open MPI supports); with
# `mpirun` instead of srun, Open MPI reads the allocation from Slurm itself.
srun --mpi=pmix "$SPARSEMAP" sweep \
  --workloads paper --arch edge,mobile,cloud --methods sparsemap,mapper,sage \
  --seeds 1,2,3,4,5,6,7,8,9,10 --budget 20000 --threads "$SLURM_CPUS_PER_TASK" --out "$OUT"
