#!/usr/bin/env python3
"""Summarises a JFR recording of dagnats (scripts/bench.sh profile).

    scripts/jfr-report.py RECORDING.jfr [REQUESTS]

Prints where the CPU samples fell (by thread, by top frame, by dagnats frame
anywhere on the stack) and what was allocated (by class and by the first
dagnats or jnats frame that allocated it); with REQUESTS, the requests the
service answered while recording, also the bytes allocated per request.
Reads the recording with the JDK's `jfr print --json`.
"""
import collections
import json
import re
import subprocess
import sys

TOP = 12


def events(path, names):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", names, path],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["recording"]["events"]


def frame(f):
    m = f["method"]
    return m["type"]["name"].split("/")[-1] + "." + m["name"]


def real(frames):
    """The stack without the JVM's generated frames (lambda classes, method handles)."""
    return [f for f in frames if "$$Lambda" not in f["method"]["type"]["name"]
            and "LambdaForm" not in f["method"]["type"]["name"]]


def full(f):
    m = f["method"]
    return m["type"]["name"].replace("/", ".") + "." + m["name"]


def thread_group(name):
    """Thread names without their numbers: one row per kind of thread."""
    return re.sub(r"\d+", "N", name or "?")


def first_ours(frames):
    for f in frames:
        name = full(f)
        if name.startswith("io.dagnats.") or name.startswith("io.nats."):
            return frame(f)
    return frame(frames[0]) if frames else "?"


def show(title, counter, total, unit=""):
    print(f"  {title}")
    for key, count in counter.most_common(TOP):
        print(f"    {100.0 * count / total:5.1f}%  {count:>10}{unit}  {key}")


def main():
    path = sys.argv[1]
    requests = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else 0
    print(f"== {path}" + (f" ({requests} requests answered while recording)" if requests else ""))

    samples = events(path, "jdk.ExecutionSample")
    threads, tops, ours = collections.Counter(), collections.Counter(), collections.Counter()
    for e in samples:
        v = e["values"]
        threads[thread_group(v["sampledThread"]["javaName"])] += 1
        frames = real(v["stackTrace"]["frames"]) if v.get("stackTrace") else []
        if frames:
            tops[frame(frames[0])] += 1
        seen = set()
        for f in frames:
            name = full(f)
            if name.startswith("io.dagnats.") and frame(f) not in seen:
                seen.add(frame(f))
                ours[frame(f)] += 1
    n = max(1, len(samples))
    print(f"  {len(samples)} CPU samples")
    show("by thread", threads, n)
    show("top frame (self)", tops, n)
    show("dagnats frames anywhere on the stack (inclusive)", ours, n)

    allocations = events(path, "jdk.ObjectAllocationSample")
    by_class, by_site = collections.Counter(), collections.Counter()
    total = 0
    for e in allocations:
        v = e["values"]
        weight = int(v["weight"])
        total += weight
        by_class[v["objectClass"]["name"]] += weight
        frames = real(v["stackTrace"]["frames"]) if v.get("stackTrace") else []
        by_site[first_ours(frames)] += weight
    line = f"  allocated (sampled, weighted) {total / 1e6:.1f} MB"
    if requests:
        line += f", {total / requests:.0f} bytes per request"
    print(line)
    show("by class (bytes)", by_class, max(1, total))
    show("by first dagnats or jnats frame (bytes)", by_site, max(1, total))


if __name__ == "__main__":
    main()
