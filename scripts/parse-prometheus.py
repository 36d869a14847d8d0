#!/usr/bin/env python3
"""Parses a Prometheus text exposition from stdin with the Prometheus Python
client's own parser and prints what it found as JSON: a list of families, each
with its name, type, and samples (name, labels, value). A text the parser
refuses exits non-zero with its error on stderr. Used by the metrics
acceptance test (scripts/prometheus-parser.sh prints how to run it)."""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families


def number(value):
    # JSON has no infinities or NaN: say them as Java's Double.parseDouble reads them.
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


families = []
for family in text_string_to_metric_families(sys.stdin.read()):
    families.append({
        "name": family.name,
        "type": family.type,
        "samples": [{"name": s.name, "labels": s.labels, "value": number(s.value)} for s in family.samples],
    })
json.dump(families, sys.stdout)
