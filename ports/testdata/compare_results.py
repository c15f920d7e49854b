#!/usr/bin/env python3
"""compare_results.py REF.json LMEVAL_OUT_DIR: every metric (and stderr) of
run_ref.py --replay's results against lmeval's results file; prints the
differences and a count."""
import json, glob, sys
ref=json.load(open(sys.argv[1]))['results']
lm=json.load(open(sorted(glob.glob(sys.argv[2]+'/*/results_*.json'))[-1]))['results']
n=bad=0
for t in sorted(ref):
    for k,v in ref[t].items():
        if k=='alias' or k not in lm.get(t,{}): continue
        n+=1
        a=lm[t][k]
        same = (a==v) or (isinstance(a,(int,float)) and isinstance(v,(int,float)) and abs(a-v)<1e-9)
        if not same:
            bad+=1; print("DIFF", t, k, a, v)
print(n, "values compared,", bad, "differ")
