#!/usr/bin/env python3
"""Draws a run's ratios as a chart: Benchmarks/run --plot RUN_OUTPUT [CHART.png].

Reads the `ratio <name> <value> min <low> max <high>` lines a run of Benchmarks/run printed
(saved to RUN_OUTPUT) and draws one horizontal bar per comparison, our throughput over the
reference's, with the rounds' spread as an error bar, on a logarithmic scale, and a line at 1 (as fast as the
reference), grouped by reference as the run's table names them. Writes CHART.png
(Benchmarks/chart.png by default) with matplotlib.
"""
import os, re, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

if len(sys.argv) < 2:
    sys.exit(__doc__)
source = sys.argv[1]
chart = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "chart.png")
text = open(source).read()
ratios = [(m[1], float(m[2]), float(m[3]), float(m[4]))
          for m in re.finditer(r"^ratio (\S+) ([\d.]+) min ([\d.]+) max ([\d.]+)$", text, re.M)]
if not ratios:
    sys.exit(f"{source} holds no ratio lines of Benchmarks/run")
references = dict(re.findall(r"^(\S+)\s+[\d.]+ ms\s+[\d.]+ ms\s+(.+?)\s+[\d.]+\s+[\d.]+–", text, re.M))
ratios.sort(key=lambda r: (references.get(r[0], ""), r[0]), reverse=True)
names = [f"{name}  (vs {references[name]})" if name in references else name for name, *_ in ratios]
values = [value for _, value, _, _ in ratios]
errors = [[value - low for _, value, low, _ in ratios], [high - value for _, value, _, high in ratios]]
colours = ["#2e7d32" if value >= 1 else "#c62828" for value in values]
figure, axes = plt.subplots(figsize=(10, 0.32 * len(ratios) + 1.2))
axes.barh(names, values, xerr=errors, color=colours, capsize=2)
axes.set_xscale("log")  # ratios from 0.1 to 50: equal factors take equal room either side of 1
axes.axvline(1, color="black", linewidth=0.8)
axes.set_xlabel("WebImage's throughput ÷ the reference's (above 1: WebImage is faster)")
load = re.search(r"^load average .*$", text, re.M)
axes.set_title("Benchmarks/run" + (f" — {load.group(0)}" if load else ""), fontsize=9)
axes.tick_params(axis="y", labelsize=8)
figure.tight_layout()
figure.savefig(chart, dpi=110)
print(f"chart: {chart} ({len(ratios)} comparisons)")
