"""Interleaved timing for the bench scripts: every side once to warm up, then `runs` rounds in
which each side runs once, so a noisy machine slows all sides alike; medians and their ratio to
the first side are printed with each side's peak memory."""
import os
import statistics


def report(sides, runs, what, width=28):
    """Runs each of `sides` (name -> function returning (seconds, peak RSS in KB)) and prints one
    line a side: median wall time, its ratio to the first side's, the largest peak RSS."""
    for run in sides.values():
        run()  # warm the page cache and each program's own caches
    times = {name: [] for name in sides}
    memory = {name: [] for name in sides}
    for _ in range(runs):
        for name, run in sides.items():
            t, m = run()
            times[name].append(t)
            memory[name].append(m)
    base = statistics.median(times[next(iter(sides))])
    print(f"{what}, {runs} interleaved runs, load average {os.getloadavg()[0]:.1f}")
    for name in sides:
        m = statistics.median(times[name])
        print(f"{name:{width}} median {m*1000:7.0f} ms  {m/base:6.1f}x vignette  peak RSS {max(memory[name])/1024:6.1f} MB")
