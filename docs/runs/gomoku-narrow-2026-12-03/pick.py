"""The rule of 03:09 UTC 2026-12-04: which student is judged, and each one's runtime."""
import json
m = {s: json.loads(open(f"runs/narrow2/{s}-measure.jsonl").read().strip().splitlines()[-1]) for s in "CD"}
key = lambda s: (m[s]["accuracy"]["student fp32 vs shipped fp32"]["same_top_move"],
                 -m[s]["accuracy"]["student fp32 vs shipped fp32"]["mean_value_diff"])
judged = max("CD", key=key)
for s in sorted("CD", key=lambda s: s != judged):
    rt = "int8-checked" if m[s]["accuracy"]["student int8-checked"]["passes_bar"] else "fp32"
    print(s, rt, "judged" if s == judged else "record")
