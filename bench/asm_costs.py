#!/usr/bin/env python3
"""Where a function's instructions go, instruction by instruction.

Reads a callgrind profile made with --dump-instr=yes and prints the
disassembly of every function whose name contains FUNCTION, each
instruction with its own count (Ir, calls excluded), so that a loop's cost
can be read off its assembly: spilled invariants, extra pointers, the
instructions of one iteration. The standard library only (any python3).

    mpirun -n 1 valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.out \\
        build/tdcone score --input corpus.tsv --score-col 3 --output x.h5
    bench/asm_costs.py cg.out build/tdcone 'PartitionedMatrix::merge_into' [--min 1000000]

--min N prints only the instructions that ran at least N times.
"""
import argparse
import collections
import re
import subprocess
import sys


def costs_of(profile, function):
    """{address: Ir} of the instructions of the functions named like `function`."""
    names, costs = {}, collections.Counter()
    current, last_address, after_call = "", 0, False
    for line in open(profile, errors="replace"):
        if line.startswith(("fn=", "cfn=")):
            match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
            if match and match.group(2):
                names[match.group(1)] = match.group(2)
            if match and line.startswith("fn="):
                current = names.get(match.group(1), "")
            continue
        if line.startswith("calls="):
            after_call = True  # the next cost line is the call's inclusive cost
            continue
        fields = line.split()
        if not fields or not re.match(r"^(0x[0-9a-f]+|[+-]\d+|\*)$", fields[0]):
            continue
        position = fields[0]
        if position.startswith("0x"):
            last_address = int(position, 16)
        elif position[0] in "+-":
            last_address += int(position)
        if after_call:
            after_call = False
            continue
        if function in current and len(fields) >= 3:
            costs[last_address] += int(fields[2])
    return costs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("binary")
    parser.add_argument("function")
    parser.add_argument("--min", type=int, default=0)
    args = parser.parse_args()
    costs = costs_of(args.profile, args.function)
    if not costs:
        sys.exit(f"no instruction of a function named like {args.function!r} in {args.profile} "
                 "(was it made with --dump-instr=yes?)")
    disassembly = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", "-C", args.binary,
         f"--start-address={min(costs)}", f"--stop-address={max(costs) + 16}"],
        capture_output=True, text=True, check=True).stdout
    print(f"{sum(costs.values()):,} instructions")
    for line in disassembly.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
        if match:
            count = costs.get(int(match.group(1), 16), 0)
            if count >= args.min:
                print(f"{count:>14,}  {match.group(1)}: {match.group(2)}")


if __name__ == "__main__":
    main()
