#!/usr/bin/python3
"""Plots of tdcone results, for people who would rather look than read.

    scripts/plot.py sweep.h5 sweep.png     # TD-CONE (and TD-CONE_REL) against the threshold, with subset sizes
    scripts/plot.py score.h5 shards.png    # per-shard TD-CONE (and TD-CONE_REL), the best shard marked

Uses Debian's python3-matplotlib and python3-h5py (scripts/install-deps.sh).
Files written with --compression zstd need HDF5_PLUGIN_PATH=build/plugins.
"""
import argparse
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def legend_below(*axes):
    handles, labels = [], []
    for ax in axes:
        h, l = ax.get_legend_handles_labels()
        handles += h
        labels += l
    axes[0].legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=len(labels), frameon=False)


def plot_sweep(f, ax):
    s = f["sweep"]
    t = s["threshold"][()]
    ax.plot(t, s["tdcone"][()], "o-", color="tab:blue", label="TD-CONE(S_t)")
    if "tdcone_rel" in s:
        ax.plot(t, s["tdcone_rel"][()], "s--", color="tab:red", label="TD-CONE_REL(ref | S_t)")
    ax.set_xlabel("score threshold t")
    ax.set_ylabel("value")
    sizes = ax.twinx()
    sizes.bar(t, s["n_pairs"][()], width=0.02, alpha=0.25, color="gray", label="|S_t|")
    if (s["n_sampled"][()] != s["n_pairs"][()]).any():
        sizes.bar(t, s["n_sampled"][()], width=0.02, alpha=0.5, color="tab:green", label="sample")
    sizes.set_ylabel("pairs")
    ax.set_zorder(sizes.get_zorder() + 1)  # lines over the bars
    ax.patch.set_visible(False)
    legend_below(ax, sizes)
    ax.set_title("Threshold sweep")


def plot_shards(f, ax):
    s = f["shards"]
    k = s["shard"][()]
    width = 0.4
    ax.bar(k - width / 2, s["tdcone"][()], width, color="tab:blue", label="TD-CONE")
    if "tdcone_rel" in s:
        rel = s["tdcone_rel"][()]
        ax.bar(k + width / 2, rel, width, color="tab:red", label="TD-CONE_REL")
        best = int(k[rel.argmin()])
        ax.annotate("lowest REL", (best + width / 2, rel.min()), xytext=(0, 12), textcoords="offset points",
                    ha="center", arrowprops={"arrowstyle": "->"})
    for x, n in zip(k, s["n_pairs"][()]):
        ax.text(x, 0, f"{n}", ha="center", va="bottom", fontsize=7, rotation=90, color="white")
    ax.set_xlabel("shard")
    ax.set_ylabel("value")
    ax.set_xticks(k)
    legend_below(ax)
    ax.set_title("Shards (pair counts inside the bars)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hdf5", help="a tdcone result with /sweep or /shards")
    parser.add_argument("png", help="picture to write")
    args = parser.parse_args()
    with h5py.File(args.hdf5, "r") as f:
        tables = [name for name in ("sweep", "shards") if name in f]
        if not tables:
            sys.exit(f"plot: {args.hdf5} has no /sweep or /shards table")
        fig, axes = plt.subplots(1, len(tables), figsize=(7 * len(tables), 4.5), squeeze=False)
        for ax, name in zip(axes[0], tables):
            (plot_sweep if name == "sweep" else plot_shards)(f, ax)
        corpus = f["corpus"].attrs
        fig.suptitle(f"{text(f.attrs['command'])}: {int(f.attrs['n_scored'])} pairs, corpus TD-CONE {corpus['tdcone']:.4f}",
                     fontsize=10)
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)
    print(f"plot: wrote {args.png}")


if __name__ == "__main__":
    main()
