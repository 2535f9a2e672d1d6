#!/usr/bin/env python3
"""gen_dsmem.py - cut the peer kernels of results/reference/h200/dsmem/ for tests/cli_dsmem.sh.

Writes peer.sass (the functions k_chain<2>, k_load<2>, k_store<2> of dsmem.sass.gz, the
cuobjdump -sass of the binary that ran on the H200, with its sm_90 header) and
chain_source.csv, load_source.csv, store_source.csv (each kernel's first source page of
ncu_source.csv, the Nsight Compute profile of one launch at B = 8, 256 iterations).
Usage: gen_dsmem.py DSMEM_DIR OUT_DIR
"""
import gzip
import sys

src, out = sys.argv[1], sys.argv[2]
lines = gzip.open(f"{src}/dsmem.sass.gz", "rt").read().split("\n")
keep = ["_Z7k_chainILi2EEvPfP3RecPji", "_Z6k_loadILi2EEvPfP3RecPji", "_Z7k_storeILi2EEvPfP3RecPji"]
body, on = [], False
for ln in lines:
    if "Function :" in ln:
        on = any(k in ln for k in keep)
    if on:
        body.append(ln)
with open(f"{out}/peer.sass", "w") as f:
    f.write("\n\tcode for sm_90\n" + "\n".join(body) + "\n")

text = gzip.open(f"{src}/ncu_source.csv.gz", "rt").read()
pages = ['"Kernel Name"' + p for p in text.split('"Kernel Name"')[1:]]
for name, tag in (("chain", "k_chain<(int)2>"), ("load", "k_load<(int)2>"), ("store", "k_store<(int)2>")):
    page = next(p for p in pages if tag in p.split("\n", 1)[0])
    with open(f"{out}/{name}_source.csv", "w") as f:
        f.write(page if page.endswith("\n") else page + "\n")
